#!/usr/bin/env bash
# The monitoring component's checks: the PrometheusRule and the dashboard match their sources
# (deploy/monitoring/outpost-rules.yaml, scripts/monitoring/build-dashboard.mjs), promtool accepts
# the rules, and every alert's unit tests (deploy/monitoring/tests) pass. Needs promtool (Debian's
# prometheus package; .ci/run installs it).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v promtool >/dev/null; then
  echo "check-alerts: promtool not found; install Debian's prometheus package" >&2
  exit 1
fi
node scripts/monitoring/build-prometheusrule.mjs --check
node scripts/monitoring/build-dashboard.mjs --check
promtool check rules deploy/monitoring/outpost-rules.yaml
promtool test rules deploy/monitoring/tests/*.yaml
