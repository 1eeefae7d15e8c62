// Writes the PrometheusRule of deploy/kubernetes/components/monitoring from the plain rule groups in
// deploy/monitoring/outpost-rules.yaml, so promtool and the Prometheus Operator read the same rules.
// usage: node scripts/monitoring/build-prometheusrule.mjs [--check]   (--check: exit 1 when out of date)
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse, stringify } from "yaml";
import { ROOT, writeGenerated } from "./generated-file.mjs";

const source = "deploy/monitoring/outpost-rules.yaml";
const rule = {
  apiVersion: "monitoring.coreos.com/v1",
  kind: "PrometheusRule",
  metadata: { name: "outpost", labels: { "app.kubernetes.io/name": "outpost" } },
  spec: { groups: parse(readFileSync(path.join(ROOT, source), "utf8")).groups },
};
const text = `# Generated from ${source} by scripts/monitoring/build-prometheusrule.mjs; edit that file.\n${stringify(rule, { lineWidth: 0 })}`;
writeGenerated("deploy/kubernetes/components/monitoring/prometheusrule.yaml", text, { script: "scripts/monitoring/build-prometheusrule.mjs", source });
