import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeIngest, startFakeIngest } from "../../../support/fake-ingest";
import { parseEnvelope } from "../../../support/envelopes";
import { until } from "../harness";
import { startSpoolingTunnel } from "../spool/spool-harness";
import { dsnOf, envelopeOf, forwardedAt, post, reportsAt, summed } from "./report-harness";

const INTERVAL_MS = 300;
let ingest: FakeIngest;
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  ingest = await startFakeIngest();
});
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
  ingest.reset();
  ingest.requests.length = 0;
  if (!ingest.port) await ingest.start();
});
afterAll(() => ingest.close());

async function tunnel(...args: Parameters<typeof startSpoolingTunnel>) {
  const server = await startSpoolingTunnel(args[0], args[1], { clientReportIntervalMs: INTERVAL_MS, ...args[2] });
  stops.push(() => server.close());
  return server;
}

/** Two more intervals pass: any report still due has been sent. */
const settle = () => new Promise((resolve) => setTimeout(resolve, INTERVAL_MS * 2 + 100));

describe("the tunnel's client reports", () => {
  it("reports the per-client limit's refusals to the DSN's ingest: items by category, summed, in one report", async () => {
    const dsn = dsnOf(ingest);
    const server = await tunnel(dsn, {}, { rateLimitPerMinute: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await post(server.port, envelopeOf(dsn, ["event", "attachment", "attachment"]))).status);
    expect(statuses).toEqual([200, 200, 429, 429, 429]);
    await until(() => reportsAt(ingest).length > 0, 3_000);
    await settle();
    expect(reportsAt(ingest)).toEqual([
      [
        { reason: "ratelimit_backoff", category: "error", quantity: 3 },
        { reason: "ratelimit_backoff", category: "attachment", quantity: 6 },
      ],
    ]);
    const reportRequest = ingest.requests.find((request) => request.body.includes("client_report"));
    if (!reportRequest) throw new Error("no report request");
    const report = parseEnvelope(reportRequest);
    expect(report.header.dsn).toBe(dsn);
    expect(report.request.url).toBe("/api/1/envelope/");
    // The tunnel's own envelope: no visitor's address goes with it.
    expect(report.request.headers["x-sentry-forwarded-for"]).toBeUndefined();
    expect(typeof report.items[0]?.payload.timestamp).toBe("number");
  });

  it("sends a DSN at most one report per interval, the counts of every interval summed exactly", async () => {
    const dsn = dsnOf(ingest);
    const server = await tunnel(dsn, {}, { rateLimitPerMinute: 1 });
    const started = Date.now();
    let refused = 0;
    while (Date.now() - started < INTERVAL_MS * 3) {
      if ((await post(server.port, envelopeOf(dsn, ["event"]))).status === 429) refused++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await settle();
    const elapsed = Date.now() - started;
    const reports = reportsAt(ingest);
    expect(reports.length).toBeGreaterThan(1);
    expect(reports.length).toBeLessThanOrEqual(Math.ceil(elapsed / INTERVAL_MS) + 1);
    expect(summed(reports)).toEqual([{ reason: "ratelimit_backoff", category: "error", quantity: refused }]);
  });

  it("reports the spool's byte cap as queue_overflow, spooled itself while the ingest is down and delivered once it is back", async () => {
    const dsn = dsnOf(ingest);
    const padding = "x".repeat(1_000);
    const server = await tunnel(dsn, { maxBytes: 4_000, maxEnvelopeBytes: 1_300, maxMemoryBytes: 1_300 });
    await ingest.stop();
    for (let i = 0; i < 5; i++) {
      expect((await post(server.port, envelopeOf(dsn, ["event", "session"], { message: `${i}${padding}` }))).status).toBe(200);
    }
    expect(server.counts.dropped.max_bytes).toBe(2);
    // The report is made while the ingest is still down: it waits in the spool.
    await settle();
    await ingest.start();
    await until(() => reportsAt(ingest).length > 0, 5_000);
    await settle();
    // The report itself fitted: nothing more was dropped for it.
    expect(server.counts.dropped.max_bytes).toBe(2);
    expect(summed(reportsAt(ingest))).toEqual([
      { reason: "queue_overflow", category: "error", quantity: 2 },
      { reason: "queue_overflow", category: "session", quantity: 2 },
    ]);
    expect(forwardedAt(ingest).map((request) => parseEnvelope(request).items[0]?.payload.message)).toEqual([`2${padding}`, `3${padding}`, `4${padding}`]);
  });

  it("reports an envelope it could not store (too large for the spool, ingest down) as network_error", async () => {
    const dsn = dsnOf(ingest);
    const server = await tunnel(dsn, { maxEnvelopeBytes: 1_000, maxMemoryBytes: 1_000 });
    await ingest.stop();
    const large = envelopeOf(dsn, ["event", "attachment"], { message: "x".repeat(1_500) });
    expect((await post(server.port, large)).status).toBe(503);
    expect((await post(server.port, large)).status).toBe(503);
    await settle();
    await ingest.start();
    await until(() => reportsAt(ingest).length > 0, 5_000);
    expect(summed(reportsAt(ingest))).toEqual([
      { reason: "network_error", category: "attachment", quantity: 2 },
      { reason: "network_error", category: "error", quantity: 2 },
    ]);
  });

  it("never reports what the ingest itself refused on replay, nor client reports, nor item types Sentry does not know", async () => {
    const dsn = dsnOf(ingest);
    const server = await tunnel(dsn, {}, { rateLimitPerMinute: 1 });
    await ingest.stop();
    expect((await post(server.port, envelopeOf(dsn, ["event"]))).status).toBe(200);
    expect((await post(server.port, envelopeOf(dsn, ["event", "client_report", "no_such_type"]))).status).toBe(429);
    ingest.response.status = 400;
    await ingest.start();
    await until(() => server.counts.dropped.rejected === 1, 5_000);
    await until(() => reportsAt(ingest).length > 0, 3_000);
    await settle();
    expect(summed(reportsAt(ingest))).toEqual([{ reason: "ratelimit_backoff", category: "error", quantity: 1 }]);
  });
});
