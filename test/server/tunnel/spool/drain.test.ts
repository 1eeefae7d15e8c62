import { afterEach, expect, it } from "vitest";
import { until } from "../harness";
import { datedEnvelope, sharedFakeIngest, tunnelOverSpool } from "./spool-harness";

// The spool's delivery before exit (Tunnel.drain), in process: what ends it before its deadline.

const ingest = sharedFakeIngest();
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
  // Listening again for the next test, if this one stopped it (already listening: refused, harmlessly).
  await ingest.fake.start().catch(() => {});
});

const bodies = (count: number, tag: string) => Array.from({ length: count }, (_, i) => datedEnvelope(ingest.dsn, `${tag}-${i}`));
const delivered = (tag: string) => ingest.fake.requests.filter((r) => r.complete && r.body.includes(tag)).length;

it("probes an open circuit at once, though its backoff runs past the deadline, and delivers everything", async () => {
  await ingest.fake.stop();
  // The first failure opens the circuit for about a minute: without the drain, nothing would go again before the deadline.
  const server = await tunnelOverSpool(ingest, bodies(5, "open-circuit"), { spool: { failureThreshold: 1, backoff: { baseMs: 60_000, capMs: 60_000 } } });
  close = server.close;
  await until(() => server.counts.circuit.includes("open"), 5_000);
  await ingest.fake.start();

  const deadline = Date.now() + 20_000;
  await server.tunnel.drain(deadline);

  expect(Date.now()).toBeLessThan(deadline);
  expect(delivered("open-circuit")).toBe(5);
  // The last removal commits on the next turn of the event loop.
  await until(() => server.store.stats().envelopes === 0);
});

it("ends as soon as nothing can go before the deadline: envelopes the ingest rate-limits stay spooled", async () => {
  ingest.fake.response = { ...ingest.fake.response, status: 429, headers: { "retry-after": "60" } };
  const server = await tunnelOverSpool(ingest, bodies(3, "limited"));
  close = server.close;
  await ingest.fake.waitFor(() => ingest.fake.requests.some((r) => r.complete), 5_000);

  const deadline = Date.now() + 20_000;
  await server.tunnel.drain(deadline);

  expect(Date.now()).toBeLessThan(deadline);
  expect(server.store.stats().envelopes).toBe(3);
});

it("lifts the worker's own pause after a failure the circuit did not count as an outage", async () => {
  await ingest.fake.stop();
  const server = await tunnelOverSpool(ingest, bodies(2, "paused"), { spool: { backoff: { baseMs: 60_000, capMs: 60_000 } } });
  close = server.close;
  await until(() => (server.counts.replayed.unreachable ?? 0) === 1, 5_000);
  expect(server.counts.circuit).not.toContain("open");
  await ingest.fake.start();

  const deadline = Date.now() + 20_000;
  await server.tunnel.drain(deadline);

  expect(Date.now()).toBeLessThan(deadline);
  expect(delivered("paused")).toBe(2);
  expect(server.counts.replayed.unreachable).toBe(1);
});

it("ends when the probe finds the ingest still down, keeping every envelope", async () => {
  await ingest.fake.stop();
  const server = await tunnelOverSpool(ingest, bodies(4, "still-down"), { spool: { failureThreshold: 1, backoff: { baseMs: 60_000, capMs: 60_000 } } });
  close = server.close;
  await until(() => server.counts.circuit.includes("open"), 5_000);
  const opened = server.counts.circuit.length;

  const deadline = Date.now() + 20_000;
  await server.tunnel.drain(deadline);

  expect(Date.now()).toBeLessThan(deadline);
  // Probed (half open), refused, open again.
  expect(server.counts.circuit.slice(opened)).toEqual(["half_open", "open"]);
  expect(server.store.stats().envelopes).toBe(4);
});
