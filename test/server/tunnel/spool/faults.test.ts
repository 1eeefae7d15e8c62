import { describe, expect, it } from "vitest";
import type { FakeResponse } from "../../../support/fake-ingest";
import { send, until } from "../harness";
import { datedEnvelope, sentAtOf, startSpoolingTunnel, sharedFakeIngest, withoutSentAt } from "./spool-harness";

const ingest = sharedFakeIngest();

const post = (port: number, body: Buffer | Buffer[]) =>
  send(port, "/monitoring?p=42", { body, headers: { "content-type": "text/plain;charset=UTF-8" } });
const delivered = (tag: string) => ingest.fake.requests.filter((r) => r.complete && r.body.includes(tag) && !r.aborted);

interface Fault {
  name: string;
  /** Makes the ingest fail; returns how to make it recover. */
  fail(): Promise<() => Promise<void>>;
}

const answering = (response: Partial<FakeResponse>) => async () => {
  Object.assign(ingest.fake.response, response);
  return async () => {
    ingest.fake.reset();
  };
};

const FAULTS: Fault[] = [
  {
    name: "refusing connections",
    fail: async () => {
      await ingest.fake.stop();
      return () => ingest.fake.start();
    },
  },
  { name: "resetting connections", fail: answering({ resetConnection: true }) },
  { name: "stalling (no response headers)", fail: answering({ hang: true }) },
  { name: "answering 502", fail: answering({ status: 502, body: "bad gateway" }) },
  { name: "answering 503", fail: answering({ status: 503, body: "unavailable" }) },
  { name: "answering 504", fail: answering({ status: 504, body: "timeout" }) },
];

describe.each(FAULTS)("an ingest $name, then recovering", (fault) => {
  it("acknowledges every envelope and delivers each once it is back, byte for byte apart from sent_at, oldest first", async () => {
    const tunnel = await startSpoolingTunnel(ingest.dsn);
    try {
      const recover = await fault.fail();
      const sentAt = new Date(Date.now() - 5_000).toISOString();
      const bodies = ["first", "second", "third", "fourth", "fifth"].map((tag) => datedEnvelope(ingest.dsn, `${fault.name}-${tag}`, "event", sentAt));
      for (const body of bodies) {
        const res = await post(tunnel.port, body);
        expect(res.status).toBe(200);
        expect(res.body.toString()).toBe("{}");
      }
      expect(tunnel.counts.rejected).toEqual({});
      // The circuit opened after three failures: the last ones went to the spool at once.
      expect(tunnel.tunnel.spoolStats?.().envelopes).toBe(5);
      const waitedFrom = Date.now();
      await recover();
      await until(() => bodies.every((_, i) => delivered(`${fault.name}-${["first", "second", "third", "fourth", "fifth"][i]}`).length > 0), 5_000);
      await until(() => tunnel.tunnel.spoolStats?.().envelopes === 0);
      const arrived = ingest.fake.requests.filter((r) => r.complete && !r.aborted && r.body.includes(fault.name));
      const firstArrivals = bodies.map((body) => arrived.findIndex((r) => withoutSentAt(r.body) === withoutSentAt(body)));
      expect(firstArrivals.every((index) => index >= 0)).toBe(true);
      expect([...firstArrivals].sort((a, b) => a - b)).toEqual(firstArrivals);
      for (const body of bodies) {
        const seen = arrived.find((r) => withoutSentAt(r.body) === withoutSentAt(body));
        expect(seen?.body.length).toBe(body.length);
        expect(seen?.headers["content-type"]).toBe("text/plain;charset=UTF-8");
        expect(seen?.headers["x-sentry-forwarded-for"]).toBe("127.0.0.1");
        // sent_at moved forward by the time it waited, at least the time since recovery began.
        const moved = Date.parse(sentAtOf(seen?.body as Buffer)) - Date.parse(sentAt);
        expect(moved).toBeGreaterThan(0);
        expect(moved).toBeLessThan(Date.now() - waitedFrom + 10_000);
      }
      expect(tunnel.counts.forwarded).toBeGreaterThanOrEqual(0);
    } finally {
      await tunnel.close();
    }
  });
});

describe("while the ingest is down", () => {
  it("opens the circuit after three failures: later envelopes are spooled at once, not after a timeout", async () => {
    const tunnel = await startSpoolingTunnel(ingest.dsn, { backoff: { baseMs: 60_000, capMs: 60_000 } });
    try {
      ingest.fake.response.hang = true;
      for (const tag of ["a", "b", "c"]) expect((await post(tunnel.port, datedEnvelope(ingest.dsn, `slow-${tag}`))).status).toBe(200);
      const seenBefore = ingest.fake.requests.length;
      const started = performance.now();
      expect((await post(tunnel.port, datedEnvelope(ingest.dsn, "fast"))).status).toBe(200);
      expect(performance.now() - started).toBeLessThan(200);
      expect(ingest.fake.requests.length).toBe(seenBefore);
    } finally {
      await tunnel.close();
    }
  });

  it("keeps a chunked envelope streamed upstream, and delivers it whole", async () => {
    const tunnel = await startSpoolingTunnel(ingest.dsn);
    try {
      ingest.fake.response.status = 503;
      const body = datedEnvelope(ingest.dsn, "chunked");
      const chunks = [body.subarray(0, 40), body.subarray(40, 90), body.subarray(90)];
      expect((await post(tunnel.port, chunks)).status).toBe(200);
      ingest.fake.reset();
      await until(() => delivered("chunked").length > 0);
      expect(withoutSentAt(delivered("chunked")[0]?.body as Buffer)).toBe(withoutSentAt(body));
    } finally {
      await tunnel.close();
    }
  });

  it("answers 503 with Retry-After for an envelope larger than the spool takes, and stores nothing", async () => {
    const tunnel = await startSpoolingTunnel(ingest.dsn, { maxEnvelopeBytes: 1024 });
    try {
      ingest.fake.response.status = 502;
      const res = await post(tunnel.port, datedEnvelope(ingest.dsn, "x".repeat(2048)));
      expect(res.status).toBe(503);
      expect(res.headers["retry-after"]).toBe("60");
      expect(tunnel.counts.rejected).toEqual({ spool_too_large: 1 });
      expect(tunnel.tunnel.spoolStats?.().envelopes).toBe(0);
    } finally {
      await tunnel.close();
    }
  });

  it("writes nothing to the spool while the ingest answers", async () => {
    const tunnel = await startSpoolingTunnel(ingest.dsn);
    try {
      expect((await post(tunnel.port, datedEnvelope(ingest.dsn, "normal"))).status).toBe(200);
      ingest.fake.response.status = 400;
      expect((await post(tunnel.port, datedEnvelope(ingest.dsn, "refused"))).status).toBe(400);
      expect(tunnel.tunnel.spoolStats?.()).toEqual({ envelopes: 0, bytes: 0, oldestReceivedAt: undefined });
    } finally {
      await tunnel.close();
    }
  });
});
