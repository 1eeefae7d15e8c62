import { expect, it } from "vitest";
import { createMetrics } from "#src/server/metrics";

it("exports the spool's depth, counters and circuit state, by upstream", async () => {
  const metrics = createMetrics();
  let depths = [
    { upstream: "o1.ingest.sentry.io", envelopes: 3, bytes: 3_000, oldestReceivedAt: Date.now() - 90_000 },
    { upstream: "other", envelopes: 1, bytes: 10, oldestReceivedAt: Date.now() },
  ];
  metrics.watchSpool(() => depths, 50_000_000);
  const observer = metrics.tunnelObserver;
  observer.spooled(1_000);
  observer.replayed("503");
  observer.replayed("200");
  observer.spoolDropped("max_age", 2, "o1.ingest.sentry.io");
  observer.circuitChanged("closed", "sentry.example.com");
  observer.circuitChanged("open", "o1.ingest.sentry.io");
  const text = await metrics.registry.metrics();
  expect(text).toContain('outpost_tunnel_spool_envelopes{upstream="o1.ingest.sentry.io"} 3');
  expect(text).toContain('outpost_tunnel_spool_envelopes{upstream="other"} 1');
  expect(text).toContain("outpost_tunnel_spool_max_bytes 50000000");
  expect(text).toContain('outpost_tunnel_spool_envelopes{upstream="sentry.example.com"} 0');
  expect(text).toContain('outpost_tunnel_spool_bytes{upstream="o1.ingest.sentry.io"} 3000');
  const age = /^outpost_tunnel_spool_oldest_age_seconds\{upstream="o1.ingest.sentry.io"\} (\S+)/m.exec(text)?.[1];
  expect(Number(age)).toBeGreaterThanOrEqual(90);
  expect(text).toContain("outpost_tunnel_spool_spooled_total 1");
  expect(text).toContain('outpost_tunnel_spool_replayed_total{status="503"} 1');
  expect(text).toContain('outpost_tunnel_spool_dropped_total{reason="max_age",upstream="o1.ingest.sentry.io"} 2');
  expect(text).toContain('outpost_tunnel_circuit_state{upstream="o1.ingest.sentry.io",state="open"} 1');
  expect(text).toContain('outpost_tunnel_circuit_state{upstream="o1.ingest.sentry.io",state="closed"} 0');
  expect(text).toContain('outpost_tunnel_circuit_state{upstream="sentry.example.com",state="closed"} 1');

  // An upstream whose backlog was delivered stays, at 0.
  depths = [];
  const after = await metrics.registry.metrics();
  expect(after).toContain('outpost_tunnel_spool_envelopes{upstream="o1.ingest.sentry.io"} 0');
  expect(after).toContain('outpost_tunnel_spool_oldest_age_seconds{upstream="o1.ingest.sentry.io"} 0');
});
