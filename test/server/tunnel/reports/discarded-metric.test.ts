import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMetrics } from "#src/server/metrics";
import { type FakeIngest, startFakeIngest } from "../../../support/fake-ingest";
import { startTunnel, until } from "../harness";
import { dsnOf, envelopeOf, post, reportsAt } from "./report-harness";

let ingest: FakeIngest;
beforeAll(async () => {
  ingest = await startFakeIngest();
});
afterAll(() => ingest.close());

describe("outpost_tunnel_discarded_total", () => {
  it("counts every item a report names, by reason and category, as the drops happen", async () => {
    const metrics = createMetrics();
    const dsn = dsnOf(ingest);
    const server = await startTunnel({
      allowedDsns: [dsn],
      observer: metrics.tunnelObserver,
      rateLimitPerMinute: 1,
      filters: ["localhost"],
      clientReportIntervalMs: 200,
    });
    try {
      expect((await post(server.port, envelopeOf(dsn, ["event"], { request: { url: "http://localhost/" } }))).status).toBe(200);
      expect((await post(server.port, envelopeOf(dsn, ["event", "attachment"]))).status).toBe(429);
      const text = await metrics.registry.metrics();
      expect(text).toContain('outpost_tunnel_discarded_total{reason="event_processor",category="error"} 1');
      expect(text).toContain('outpost_tunnel_discarded_total{reason="ratelimit_backoff",category="error"} 1');
      expect(text).toContain('outpost_tunnel_discarded_total{reason="ratelimit_backoff",category="attachment"} 1');
      await until(() => reportsAt(ingest).length > 0, 3_000);
    } finally {
      await server.close();
    }
  });
});
