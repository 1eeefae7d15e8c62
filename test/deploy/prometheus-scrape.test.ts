import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdIngestDown, type MonitoredOutpost, sendTraffic, startMonitoredOutpost } from "../support/monitored-outpost";
import { dashboardQueries, readRules, withoutVariables } from "../support/monitoring-queries";
import { prometheusAvailable, startPrometheus, type TestPrometheus } from "../support/prometheus-server";

// The rules as shipped, but for the spool-age alerts' thresholds (10 min, 1 h), scaled to seconds
// so that a half-minute outage reaches them; every `for:` is kept, so alerts go pending, not firing.
function rulesForAHalfMinute() {
  const rules = readRules();
  for (const rule of rules.groups.flatMap((group) => group.rules)) {
    if (rule.alert === "OutpostSpoolBacklogAging") rule.expr = rule.expr.replace("> 600", "> 2");
    if (rule.alert === "OutpostSpoolBacklogStale") rule.expr = rule.expr.replace("> 3600", "> 4");
  }
  return rules;
}

let outpost: MonitoredOutpost;
let prometheus: TestPrometheus;

/** Polls `read` once a second until `done` holds for its value; returns the last value either way. */
async function settle<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

describe.skipIf(!prometheusAvailable)("Outpost scraped by a real Prometheus", () => {
  beforeAll(async () => {
    outpost = await startMonitoredOutpost();
    prometheus = await startPrometheus(new URL(outpost.server.metricsUrl).host, rulesForAHalfMinute());
  }, 60_000);
  afterAll(async () => {
    await prometheus?.stop();
    await outpost?.stop();
  });

  it("answers every recording rule and dashboard panel, and with the ingest down the spool-age and circuit alerts go pending", async () => {
    // Traffic for about 15 s (scraped each second), then the outage with traffic going on.
    const traffic = async (seconds: number) => {
      for (const end = Date.now() + seconds * 1_000; Date.now() < end; ) {
        await sendTraffic(outpost);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    };
    await traffic(15);
    await holdIngestDown(outpost);
    // Awaited at the end; caught here so that a failure of it is reported there, not as unhandled.
    const during = traffic(15).then(() => undefined, (error: unknown) => error);

    const records = readRules().groups.flatMap((group) => group.rules.flatMap((rule) => (rule.record ? [rule.record] : [])));
    // outpost_redis_up exists only with REDIS_URL, which needs a redis-server to start.
    const panels = dashboardQueries().filter((query) => outpost.redis || !query.expr.includes("outpost_redis_up"));
    const queries = [...records.map((record) => ({ where: `record ${record}`, expr: record })), ...panels].map((query) => ({
      ...query,
      expr: withoutVariables(query.expr),
    }));
    const empty = async () => {
      const answers = await Promise.all(queries.map(async (query) => ((await prometheus.query(query.expr)).length ? [] : [query.where])));
      return answers.flat();
    };
    expect(await settle(empty, (list) => list.length === 0, 30_000)).toEqual([]);

    const pending = async () =>
      (await prometheus.alerts())
        .filter((alert) => alert.state === "pending")
        .map((alert) => `${alert.labels.alertname} ${alert.labels.upstream ?? ""}`.trim())
        .sort();
    // The ingest's upstream label: its host and port.
    const upstream = new URL(outpost.ingest.origin).host;
    const expected = [`OutpostCircuitOpen ${upstream}`, `OutpostSpoolBacklogAging ${upstream}`, `OutpostSpoolBacklogStale ${upstream}`];
    const seen = await settle(pending, (names) => expected.every((name) => names.includes(name)), 20_000);
    expect(seen).toEqual(expect.arrayContaining(expected));
    expect(await during).toBeUndefined();
  }, 120_000);
});
