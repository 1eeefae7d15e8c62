import { expect, it } from "vitest";
import { open, responseOf, send } from "../harness";
import { datedEnvelope, sharedFakeIngest, startSpoolingTunnel } from "./spool-harness";

const ingest = sharedFakeIngest();

/** Uploads `body` with a Content-Length in 64 KiB writes, a timer turn apart, as a browser on a real network would. */
async function pacedUpload(port: number, body: Buffer) {
  const req = open(port, "/monitoring?p=42", { body });
  const response = responseOf(req);
  response.catch(() => {});
  for (let offset = 0; offset < body.length && !req.destroyed; offset += 64 * 1024) {
    req.write(body.subarray(offset, offset + 64 * 1024));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  req.end();
  return response;
}

const large = () => datedEnvelope(ingest.dsn, "x".repeat(4 * 1024 * 1024));

async function expectReadable503(port: number) {
  const res = await pacedUpload(port, large());
  expect(res.status).toBe(503);
  expect(res.headers["retry-after"]).toBe("60");
  expect(res.json().detail).toBe("Sentry ingest unavailable, retry later");
}

it("answers a 4 MiB upload it cannot spool, refused unread while the circuit is open, with a 503 the client reads whole", async () => {
  // The circuit, once open, stays so for the test: every large upload is refused before it is read.
  const hold = { baseMs: 60_000, capMs: 60_000 };
  const tunnel = await startSpoolingTunnel(ingest.dsn, { backoff: hold }, { maxBytes: 8 * 1024 * 1024 });
  try {
    await ingest.fake.stop();
    for (const tag of ["a", "b", "c"]) expect((await send(tunnel.port, "/monitoring?p=42", { body: datedEnvelope(ingest.dsn, tag) })).status).toBe(200);
    expect(tunnel.counts.circuit).toContain("open");
    for (let i = 0; i < 3; i++) await expectReadable503(tunnel.port);
  } finally {
    await ingest.fake.start();
    await tunnel.close();
  }
});

it("answers a 4 MiB upload streamed to an ingest that then fails (the probe, or before the circuit opens) with a 503 the client reads whole", async () => {
  // The circuit never opens: each large upload streams to the ingest, which refuses the connection.
  const tunnel = await startSpoolingTunnel(ingest.dsn, { failureThreshold: 1_000 }, { maxBytes: 8 * 1024 * 1024 });
  try {
    await ingest.fake.stop();
    for (let i = 0; i < 3; i++) await expectReadable503(tunnel.port);
    expect(tunnel.counts.circuit).not.toContain("open");
    expect(tunnel.counts.rejected).toEqual({ spool_too_large: 3 });
  } finally {
    await ingest.fake.start();
    await tunnel.close();
  }
});

it("answers a 4 MiB upload over the rate limit with a 429 the client reads whole", async () => {
  const tunnel = await startSpoolingTunnel(ingest.dsn, {}, { maxBytes: 8 * 1024 * 1024, rateLimitPerMinute: 1 });
  try {
    expect((await send(tunnel.port, "/monitoring?p=42", { body: datedEnvelope(ingest.dsn, "first") })).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const res = await pacedUpload(tunnel.port, large());
      expect(res.status).toBe(429);
      expect(res.json().detail).toBe("too many envelopes, retry later");
    }
  } finally {
    await tunnel.close();
  }
});
