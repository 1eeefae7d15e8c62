import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { dashboardQueries, exposition, namesIn, type Query, readRules, ruleQueries, withoutVariables } from "../support/monitoring-queries";
import { holdIngestDown, type MonitoredOutpost, sendTraffic, startMonitoredOutpost } from "../support/monitored-outpost";

const PROMTOOL = process.env.PROMTOOL_PATH ?? "/usr/bin/promtool";
const hasPromtool = existsSync(PROMTOOL);
if (!hasPromtool) console.warn(`promtool checks skipped: no promtool at ${PROMTOOL} (apt-get install -y prometheus, or set PROMTOOL_PATH)`);

// Labels Prometheus adds to every scraped series; `le` is every histogram bucket's.
const TARGET_LABELS = new Set(["job", "instance", "namespace", "le"]);

let outpost: MonitoredOutpost;
let series: Map<string, Set<string>>;

beforeAll(async () => {
  outpost = await startMonitoredOutpost();
  await sendTraffic(outpost);
  series = exposition(await holdIngestDown(outpost));
}, 60_000);
afterAll(async () => {
  await outpost?.stop();
});

const recorded = new Set(readRules().groups.flatMap((group) => group.rules.flatMap((rule) => (rule.record ? [rule.record] : []))));

/** What a query reads that the running server does not export, as messages. */
function missing({ where, expr, templated }: Query): string[] {
  const problems: string[] = [];
  const { metrics, labels, grouping } = namesIn(expr);
  // outpost_redis_up exists only with REDIS_URL, which needs a redis-server to start.
  const exported = metrics.filter((metric) => !recorded.has(metric) && (outpost.redis || metric !== "outpost_redis_up"));
  for (const metric of exported) if (!series.has(metric)) problems.push(`${where}: ${metric} is not in /metrics`);
  for (const [metric, names] of labels) {
    for (const name of names) {
      if (!TARGET_LABELS.has(name) && series.has(metric) && !series.get(metric)?.has(name)) problems.push(`${where}: ${metric} has no label ${name}`);
    }
  }
  const available = new Set(exported.flatMap((metric) => [...(series.get(metric) ?? [])]));
  for (const name of [...grouping, ...templated]) {
    if (!TARGET_LABELS.has(name) && exported.length > 0 && !available.has(name)) problems.push(`${where}: label ${name} is on none of ${exported.join(", ")}`);
  }
  return problems;
}

describe("the monitoring component against a running server's /metrics", () => {
  it("every metric and label the alert rules read is exported", () => {
    expect(ruleQueries().flatMap(missing)).toEqual([]);
  });

  it("every metric and label the dashboard reads is exported", () => {
    const queries = dashboardQueries();
    expect(queries.length).toBeGreaterThan(30);
    expect(queries.flatMap(missing)).toEqual([]);
  });

  it("reads recording rules that exist", () => {
    const read = [...ruleQueries(), ...dashboardQueries()].flatMap((query) => namesIn(query.expr).metrics.filter((name) => name.includes(":")));
    expect(read.filter((name) => !recorded.has(name))).toEqual([]);
  });

  it("notices a name the server does not export", () => {
    const problems = missing({ where: "test", expr: 'sum by (region) (rate(outpost_tunnel_spool_dropped_total{reason="max_age"}[5m]))', templated: ["reason"] });
    expect(problems).toEqual(["test: label region is on none of outpost_tunnel_spool_dropped_total"]);
    expect(missing({ where: "test", expr: "outpost_tunnel_envelopes_total", templated: [] })).toEqual(["test: outpost_tunnel_envelopes_total is not in /metrics"]);
  });
});

describe.skipIf(!hasPromtool)("the dashboard's queries", () => {
  it("are valid PromQL (promtool checks them as recording rules)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "outpost-dashboard-rules-"));
    try {
      const rules = dashboardQueries().map((query, i) => ({ record: `dashboard:query:${i}`, expr: withoutVariables(query.expr) }));
      const file = path.join(dir, "dashboard.rules.yaml");
      writeFileSync(file, stringify({ groups: [{ name: "dashboard", rules }] }));
      expect(execFileSync(PROMTOOL, ["check", "rules", file], { encoding: "utf8" })).toContain(`SUCCESS: ${rules.length} rules found`);
      writeFileSync(file, stringify({ groups: [{ name: "dashboard", rules: [{ record: "broken", expr: "sum by (route (rate(x[1m]))" }] }] }));
      expect(() => execFileSync(PROMTOOL, ["check", "rules", file], { stdio: "pipe" })).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
