import { describe, expect, it } from "vitest";
import { createTunnel } from "#src/server/tunnel";
import { BodyCopy, HeldBytes } from "#src/server/tunnel/body/body-copy";
import { open, responseOf, send, until } from "../harness";
import { datedEnvelope, sharedFakeIngest, spoolDir, spoolOptions, startSpoolingTunnel, withoutSentAt } from "./spool-harness";

const ingest = sharedFakeIngest();
const chunk = (size: number) => Buffer.alloc(size, 0x61);
// An envelope of a little over 3 KiB, and where its header line ends (the tunnel reads that far before forwarding).
const large = (tag: string) => Buffer.concat([datedEnvelope(ingest.dsn, tag), chunk(3000)]);
const headerEnd = (body: Buffer) => body.indexOf(10) + 1;

describe("BodyCopy", () => {
  it("reserves a declared length whole or not at all, and gives it back once", () => {
    const budget = new HeldBytes(100);
    const first = new BodyCopy(budget, 100, 60);
    const second = new BodyCopy(budget, 100, 60);
    expect([first.kept, second.kept, second.refusal]).toEqual([true, false, "spool_busy"]);
    expect(budget.held).toBe(60);
    first.add(chunk(30));
    first.add(chunk(30));
    expect(first.concat()?.length).toBe(60);
    first.release();
    first.release();
    expect(budget.held).toBe(0);
  });

  it("refuses a declared length over the spool's limit without touching the budget", () => {
    const budget = new HeldBytes(100);
    const copy = new BodyCopy(budget, 50, 60);
    expect([copy.kept, copy.refusal, budget.held]).toEqual([false, "spool_too_large", 0]);
  });

  it("reserves a chunked body as it grows and drops it, reservation and all, at the first chunk that does not fit", () => {
    const budget = new HeldBytes(100);
    const other = new BodyCopy(budget, 100, 40);
    const chunked = new BodyCopy(budget, 100, undefined);
    chunked.add(chunk(50));
    expect(budget.held).toBe(90);
    chunked.add(chunk(20));
    expect([chunked.kept, chunked.refusal, chunked.concat(), budget.held]).toEqual([false, "spool_busy", undefined, 40]);
    other.release();
    const large = new BodyCopy(budget, 30, undefined);
    large.add(chunk(31));
    expect([large.refusal, budget.held]).toEqual(["spool_too_large", 0]);
  });

  it("counts nothing without a budget (a body already in memory whole)", () => {
    const copy = new BodyCopy(undefined, 100, 80);
    copy.add(chunk(80));
    expect(copy.concat()?.length).toBe(80);
  });
});

describe("the spool's memory budget", () => {
  it("must hold at least one envelope of the largest spooled size", () => {
    const dir = spoolDir();
    try {
      const options = { path: "/monitoring", allowedDsns: [ingest.dsn], maxBytes: 1024, rateLimitPerMinute: 0, connectTimeoutMs: 100, headersTimeoutMs: 100 };
      expect(() => createTunnel({ ...options, spool: spoolOptions(dir.dir, { maxMemoryBytes: 1024 }) })).toThrow(/maxMemoryBytes must not be less than spool maxEnvelopeBytes/);
      expect(() => createTunnel({ ...options, spool: spoolOptions(dir.dir, { maxMemoryBytes: 0 }) })).toThrow(/maxMemoryBytes must be a positive integer/);
    } finally {
      dir.remove();
    }
  });

  it("spools a streamed envelope the ingest failed while the budget had room, answers 503 for one past it, and frees the budget", async () => {
    const tunnel = await startSpoolingTunnel(ingest.dsn, { maxEnvelopeBytes: 4096, maxMemoryBytes: 4096 }, { maxBytes: 64 * 1024 });
    try {
      ingest.fake.response.status = 503;
      const bodies = ["kept", "busy"].map(large);
      // Both uploads under way at once, each declaring 3 KiB+ of a 4 KiB budget.
      const uploads = bodies.map((body) => {
        const req = open(tunnel.port, "/monitoring?p=42", { body, headers: { "content-type": "text/plain" } });
        req.write(body.subarray(0, headerEnd(body)));
        return { req, body, response: responseOf(req) };
      });
      await ingest.fake.waitFor(() => ingest.fake.requests.length === 2);
      for (const { req, body } of uploads) req.end(body.subarray(headerEnd(body)));
      const [kept, busy] = await Promise.all(uploads.map((upload) => upload.response));
      expect(kept?.status).toBe(200);
      expect(busy?.status).toBe(503);
      expect(busy?.headers["retry-after"]).toBe("60");
      expect(tunnel.counts.rejected).toEqual({ spool_busy: 1 });
      expect(tunnel.tunnel.spoolStats?.().envelopes).toBe(1);

      // Nothing is held any more: the next one fits again.
      const next = large("next");
      expect((await send(tunnel.port, "/monitoring?p=42", { body: [next.subarray(0, headerEnd(next)), next.subarray(headerEnd(next))] })).status).toBe(200);
      // reset() forgets what the ingest saw: from here on, only the spool's deliveries.
      ingest.fake.reset();
      await until(() => tunnel.tunnel.spoolStats?.().envelopes === 0);
      const delivered = ingest.fake.requests.filter((r) => r.complete).map((r) => withoutSentAt(r.body));
      expect(delivered).toEqual(expect.arrayContaining([withoutSentAt(bodies[0] as Buffer), withoutSentAt(next)]));
      expect(delivered).not.toContain(withoutSentAt(bodies[1] as Buffer));
    } finally {
      await tunnel.close();
    }
  });

  it("answers 503 at once, without reading it, for a streamed envelope past the budget while the circuit is open", async () => {
    const tunnel = await startSpoolingTunnel(ingest.dsn, { maxEnvelopeBytes: 4096, maxMemoryBytes: 4096, backoff: { baseMs: 60_000, capMs: 60_000 } });
    try {
      ingest.fake.response.status = 503;
      for (const tag of ["a", "b", "c"]) expect((await send(tunnel.port, "/monitoring?p=42", { body: datedEnvelope(ingest.dsn, tag) })).status).toBe(200);
      const holder = large("holder");
      const held = open(tunnel.port, "/monitoring?p=42", { body: holder });
      const heldResponse = responseOf(held);
      held.write(holder.subarray(0, headerEnd(holder)));
      // No event tells when it has taken its share of the budget: give it a moment.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const late = large("late");
      const lateReq = open(tunnel.port, "/monitoring?p=42", { body: late });
      lateReq.on("error", () => {});
      const lateResponse = responseOf(lateReq);
      lateReq.write(late.subarray(0, headerEnd(late)));
      const refused = await lateResponse;
      expect(refused.status).toBe(503);
      expect(refused.headers["retry-after"]).toBe("60");
      expect(tunnel.counts.rejected).toEqual({ spool_busy: 1 });
      lateReq.destroy();
      held.end(holder.subarray(headerEnd(holder)));
      expect((await heldResponse).status).toBe(200);
      expect(tunnel.tunnel.spoolStats?.().envelopes).toBe(4);
    } finally {
      await tunnel.close();
    }
  });
});
