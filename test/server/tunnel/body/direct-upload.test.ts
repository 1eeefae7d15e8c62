import { Agent, request } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeIngest, startFakeIngest } from "../../../support/fake-ingest";
import { envelope, open, responseOf, send, startTunnel, type TunnelServer, until } from "../harness";

// Envelopes declared over 256 KiB with nothing to copy for a spool: the request itself is the
// upstream body (tunnel/direct-upload.ts), and undici destroys it when it is done with it.
let fake: FakeIngest;
let tunnel: TunnelServer;
let dsn: string;
let large: Buffer;

beforeAll(async () => {
  fake = await startFakeIngest();
  dsn = `http://abc123@127.0.0.1:${fake.port}/42`;
  large = envelope(dsn, [`{"type":"attachment","length":${600 * 1024}}\n${"a".repeat(600 * 1024)}`]);
  tunnel = await startTunnel({ allowedDsns: [dsn], maxBytes: 1024 * 1024 });
});
afterEach(() => fake.reset());
afterAll(async () => {
  await tunnel.close();
  await fake.close();
});

/** POSTs `body` on `agent`'s connection and reads the answer. */
function post(agent: Agent, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: tunnel.port, path: "/monitoring?p=42", method: "POST", agent, headers: { "content-length": String(body.length) } },
      (res) => res.resume().once("end", () => resolve(res.statusCode ?? 0)),
    );
    req.once("error", reject);
    req.end(body);
  });
}

describe("a large envelope of declared length, relayed as the request itself", () => {
  it("reaches the ingest byte for byte, counts its bytes, and leaves the connection usable for the next one", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const before = tunnel.counts.bytes;
      expect(await post(agent, large)).toBe(200);
      expect(await post(agent, large)).toBe(200);
      expect(fake.requests.map((seen) => seen.body.equals(large))).toEqual([true, true]);
      expect(tunnel.counts.bytes - before).toBe(2 * large.length);
      expect(await tunnel.connections()).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it("counts a client that leaves mid-upload as client_aborted, not as an ingest failure", async () => {
    const before = tunnel.counts.rejected.client_aborted ?? 0;
    const req = open(tunnel.port, "/monitoring?p=42", { headers: { "content-length": String(large.length) } });
    req.on("error", () => {});
    req.write(large.subarray(0, 300 * 1024));
    await fake.waitFor(() => (fake.requests[0]?.body.length ?? 0) > 0);
    req.destroy();
    await fake.waitFor(() => fake.requests[0]?.aborted === true);
    await until(() => tunnel.counts.rejected.client_aborted === before + 1);
    expect(tunnel.counts.rejected.upstream_unreachable).toBeUndefined();
    await until(async () => (await tunnel.connections()) === 0);
  });

  it("answers 502 on the client's connection when the ingest resets mid-upload, and relays the next envelope", async () => {
    fake.queued.push({ resetConnection: true });
    const appErrors = tunnel.appErrors.length;
    const req = open(tunnel.port, "/monitoring?p=42", { headers: { "content-length": String(large.length) } });
    const response = responseOf(req);
    req.write(large.subarray(0, 300 * 1024));
    const res = await response;
    expect(res.status).toBe(502);
    expect(res.json()).toEqual({ detail: "Sentry ingest unreachable" });
    expect(res.headers.connection).toBe("close");
    expect(tunnel.counts.rejected.upstream_unreachable).toBe(1);
    req.destroy();
    expect((await send(tunnel.port, "/monitoring?p=42", { body: large })).status).toBe(200);
    expect(tunnel.appErrors).toHaveLength(appErrors);
  });
});
