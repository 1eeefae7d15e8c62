import { describe, expect, it } from "vitest";
import { createMetrics } from "#src/server/metrics";
import { fakeIngestPerFile, send, startTunnel, until } from "../harness";
import { startSpoolingTunnel } from "../spool/spool-harness";
import { encode, envelopeOf, item, readEnvelope } from "./scrub-harness";

const ingest = fakeIngestPerFile();

const secret = () => item({ type: "event" }, { message: "card 4111-1111-1111-1111", extra: { password: "hunter2" } });

describe("scrubbing and the spool", () => {
  it.each([false, true])("spools the scrubbed envelope, never the visitor's (gzip, streamed: %s)", async (streamed) => {
    const tunnel = await startSpoolingTunnel(ingest.dsn, {}, { scrub: "defaults" });
    try {
      ingest.fake.queued.push({ status: 503 });
      const raw = encode(envelopeOf(ingest.dsn, [secret(), item({ type: "session" }, { sid: "1" })]), streamed ? "gzip" : "identity");
      const body = streamed ? [raw.subarray(0, 20), raw.subarray(20)] : raw;
      const res = await send(tunnel.port, "/monitoring?p=42", { body, headers: streamed ? { "content-encoding": "gzip" } : {} });
      expect(res.status).toBe(200);
      expect(tunnel.counts.spooled).toBe(1);
      await until(() => ingest.fake.requests.filter((request) => request.complete).length === 2);
      const replayed = ingest.fake.requests[1];
      expect(replayed?.headers["content-encoding"]).toBeUndefined();
      expect(replayed?.body.includes("hunter2")).toBe(false);
      expect(replayed?.body.includes("4111")).toBe(false);
      expect(readEnvelope(replayed as never).items.map((i) => i.header.type)).toEqual(["event", "session"]);
    } finally {
      await tunnel.close();
    }
  });
});

describe("outpost_tunnel_scrubbed_total and client reports", () => {
  it("counts values replaced by rule in the metrics", async () => {
    const metrics = createMetrics();
    const tunnel = await startTunnel({ allowedDsns: [ingest.dsn], scrub: "defaults", observer: metrics.tunnelObserver });
    try {
      expect((await send(tunnel.port, "/monitoring?p=42", { body: envelopeOf(ingest.dsn, [secret()]) })).status).toBe(200);
      const text = await metrics.registry.metrics();
      expect(text).toContain('outpost_tunnel_scrubbed_total{rule="password"} 1');
      expect(text).toContain('outpost_tunnel_scrubbed_total{rule="creditcard"} 1');
    } finally {
      await tunnel.close();
    }
  });

  it("reports a dropped event to its DSN's ingest as invalid in a client report", async () => {
    const tunnel = await startTunnel({ allowedDsns: [ingest.dsn], scrub: "defaults", clientReportIntervalMs: 50 });
    try {
      const body = envelopeOf(ingest.dsn, [item({ type: "event" }, "{not json"), item({ type: "event" }, "[]")]);
      expect((await send(tunnel.port, "/monitoring?p=42", { body })).status).toBe(200);
      await until(() => ingest.fake.requests.some((request) => request.complete && request.body.includes("client_report")));
      const report = ingest.fake.requests.find((request) => request.body.includes("client_report"));
      const payload = JSON.parse(readEnvelope(report as never).items[0]?.payload.toString() ?? "");
      expect(payload.discarded_events).toEqual([{ reason: "invalid", category: "error", quantity: 2 }]);
    } finally {
      await tunnel.close();
    }
  });
});
