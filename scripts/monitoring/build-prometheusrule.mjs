// Writes the PrometheusRule of deploy/kubernetes/components/monitoring from the plain rule groups in
// deploy/monitoring/outpost-rules.yaml, so promtool and the Prometheus Operator read the same rules.
// usage: node scripts/monitoring/build-prometheusrule.mjs [--check]   (--check: exit 1 when out of date)
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse, stringify } from "yaml";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const source = path.join(root, "deploy/monitoring/outpost-rules.yaml");
const target = path.join(root, "deploy/kubernetes/components/monitoring/prometheusrule.yaml");

const rule = {
  apiVersion: "monitoring.coreos.com/v1",
  kind: "PrometheusRule",
  metadata: { name: "outpost", labels: { "app.kubernetes.io/name": "outpost" } },
  spec: { groups: parse(readFileSync(source, "utf8")).groups },
};
const text = `# Generated from deploy/monitoring/outpost-rules.yaml by scripts/monitoring/build-prometheusrule.mjs; edit that file.\n${stringify(rule, { lineWidth: 0 })}`;

if (process.argv.includes("--check")) {
  if (readFileSync(target, "utf8") !== text) {
    console.error(`${path.relative(root, target)} is out of date: run node scripts/monitoring/build-prometheusrule.mjs`);
    process.exit(1);
  }
  console.log(`${path.relative(root, target)} matches ${path.relative(root, source)}`);
} else {
  writeFileSync(target, text);
  console.log(`wrote ${path.relative(root, target)}`);
}
