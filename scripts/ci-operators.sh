#!/usr/bin/env bash
# The operators' CI checks, run by .ci/run after `npm ci` (metrics tests run in `npm test`):
# Dockerfile lint, offline Kubernetes manifest validation, and the image smoke test.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "ci-operators: Dockerfile lint"
node scripts/image/lint-dockerfile.mjs

echo "ci-operators: Kubernetes manifests (offline schema validation)"
node deploy/validate.mjs
# The validator must also say no: a broken copy has to fail.
broken=$(mktemp -d)
trap 'rm -rf "$broken"' EXIT
cp deploy/kubernetes/*.yaml "$broken"/
sed -i 's/minReplicas: [0-9]*/minReplicas: "two"/' "$broken/hpa.yaml"
if node deploy/validate.mjs "$broken" >/dev/null 2>&1; then
  echo "ci-operators: deploy/validate.mjs accepted an invalid HorizontalPodAutoscaler" >&2
  exit 1
fi
# And a component: Redis opened to every namespace.
cp -r deploy/kubernetes "$broken/with-components"
sed -i 's/^        - podSelector:/        - namespaceSelector: {}\n        - podSelector:/' "$broken/with-components/components/redis/networkpolicy.yaml"
if node deploy/validate.mjs "$broken/with-components" >/dev/null 2>&1; then
  echo "ci-operators: deploy/validate.mjs accepted a Redis NetworkPolicy that admits every namespace" >&2
  exit 1
fi
# And the monitoring component: an alert without its runbook.
cp -r deploy/kubernetes "$broken/with-monitoring"
sed -i '0,/runbook_url:/{/runbook_url:/d}' "$broken/with-monitoring/components/monitoring/prometheusrule.yaml"
if node deploy/validate.mjs "$broken/with-monitoring" >/dev/null 2>&1; then
  echo "ci-operators: deploy/validate.mjs accepted a PrometheusRule alert without a runbook_url" >&2
  exit 1
fi

echo "ci-operators: image smoke test"
if [ "$(id -u)" = 0 ] && { ! command -v buildah || ! command -v debootstrap; } >/dev/null; then
  echo "ci-operators: installing buildah and debootstrap"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq buildah debootstrap >/dev/null; } ||
    echo "ci-operators: could not install buildah/debootstrap; the smoke test will say SKIPPED"
fi
scripts/image-smoke
