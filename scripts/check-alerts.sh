#!/usr/bin/env bash
# The alert rules' checks: the PrometheusRule matches deploy/monitoring/outpost-rules.yaml, promtool
# accepts the rules, and every alert's unit tests (deploy/monitoring/tests) pass. Needs promtool
# (Debian's prometheus package; .ci/run installs it).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v promtool >/dev/null; then
  echo "check-alerts: promtool not found; install Debian's prometheus package" >&2
  exit 1
fi
node scripts/monitoring/build-prometheusrule.mjs --check
promtool check rules deploy/monitoring/outpost-rules.yaml
promtool test rules deploy/monitoring/tests/*.yaml
