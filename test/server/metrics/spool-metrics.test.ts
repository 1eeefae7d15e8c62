import { expect, it } from "vitest";
import { createMetrics } from "../../../src/server/metrics";

it("exports the spool's depth, counters and circuit state", async () => {
  const metrics = createMetrics();
  metrics.watchSpool(() => ({ envelopes: 3, bytes: 3_000, oldestReceivedAt: Date.now() - 90_000 }));
  const observer = metrics.tunnelObserver;
  observer.spooled(1_000);
  observer.replayed("503");
  observer.replayed("200");
  observer.spoolDropped("max_age", 2);
  observer.circuitChanged("open");
  const text = await metrics.registry.metrics();
  expect(text).toContain("outpost_tunnel_spool_envelopes 3");
  expect(text).toContain("outpost_tunnel_spool_bytes 3000");
  expect(Number(/^outpost_tunnel_spool_oldest_age_seconds (\S+)/m.exec(text)?.[1])).toBeGreaterThanOrEqual(90);
  expect(text).toContain("outpost_tunnel_spool_spooled_total 1");
  expect(text).toContain('outpost_tunnel_spool_replayed_total{status="503"} 1');
  expect(text).toContain('outpost_tunnel_spool_dropped_total{reason="max_age"} 2');
  expect(text).toContain('outpost_tunnel_circuit_state{state="open"} 1');
  expect(text).toContain('outpost_tunnel_circuit_state{state="closed"} 0');
});
