import { createServer } from "node:http";
import { type AddressInfo, createServer as createTcpServer } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeIngest, startFakeIngest } from "../../support/fake-ingest";
import { envelope, open, responseOf, send, startTunnel, type TunnelServer, until } from "./harness";

let fake: FakeIngest;
let tunnel: TunnelServer;
let dsn: string;
let headerLine: Buffer;

beforeAll(async () => {
  fake = await startFakeIngest();
  dsn = `http://abc123@127.0.0.1:${fake.port}/42`;
  headerLine = Buffer.from(`${JSON.stringify({ dsn })}\n`);
  tunnel = await startTunnel({ allowedDsns: [dsn], maxBytes: 100_000, headersTimeoutMs: 300 });
});
afterEach(() => fake.reset());
afterAll(async () => {
  await tunnel.close();
  await fake.close();
});

describe("streaming", () => {
  it("starts the upstream request before the client has finished uploading", async () => {
    const req = open(tunnel.port, "/monitoring?p=42");
    const response = responseOf(req);
    req.write(headerLine);
    await fake.waitFor(() => fake.requests[0]?.firstByteAt !== undefined);
    const seen = fake.requests[0];
    expect(seen?.complete).toBe(false);
    expect(seen?.body.equals(headerLine)).toBe(true);

    req.end('{"type":"event"}\n{}');
    const res = await response;
    expect(res.status).toBe(200);
    expect(seen?.body.toString()).toBe(`${headerLine}{"type":"event"}\n{}`);
  });

  it("aborts the upstream request when the client disconnects mid-upload", async () => {
    const before = tunnel.counts.rejected.client_aborted ?? 0;
    const req = open(tunnel.port, "/monitoring?p=42");
    req.on("error", () => {});
    req.write(headerLine);
    await fake.waitFor(() => fake.requests[0]?.firstByteAt !== undefined);
    req.destroy();
    await fake.waitFor(() => fake.requests[0]?.aborted === true);
    expect(fake.requests[0]?.complete).toBe(false);
    await until(() => tunnel.counts.rejected.client_aborted === before + 1);
    await until(async () => (await tunnel.connections()) === 0);
  });

  it("answers 413 when a chunked body exceeds the cap, and aborts the upstream request", async () => {
    const req = open(tunnel.port, "/monitoring?p=42");
    const response = responseOf(req);
    req.write(headerLine);
    await fake.waitFor(() => fake.requests[0]?.firstByteAt !== undefined);
    req.write(Buffer.alloc(120_000, 0x61));
    const res = await response;
    expect(res.status).toBe(413);
    expect(res.json()).toEqual({ detail: "envelope larger than 100000 bytes" });
    expect(res.headers.connection).toBe("close");
    await fake.waitFor(() => fake.requests[0]?.aborted === true);
    expect(fake.requests[0]?.body.length).toBeLessThanOrEqual(100_000);
    expect(tunnel.counts.rejected.too_large).toBeGreaterThanOrEqual(1);
    req.destroy();
    await until(async () => (await tunnel.connections()) === 0);
  });

  it("answers 413 when the cap is crossed while still reading the header line", async () => {
    const small = await startTunnel({ allowedDsns: [dsn], maxBytes: 1_000 });
    try {
      const res = await send(small.port, "/monitoring?p=42", { body: [Buffer.alloc(600, 0x61), Buffer.alloc(600, 0x61)] });
      expect(res.status).toBe(413);
      expect(fake.requests).toHaveLength(0);
    } finally {
      await small.close();
    }
  });

  it("ends the client's response when the ingest fails mid-answer", async () => {
    fake.response.body = "x".repeat(10_000);
    fake.response.destroyMidResponse = true;
    await expect(send(tunnel.port, "/monitoring?p=42", { body: envelope(dsn) })).rejects.toThrow();
    await until(async () => (await tunnel.connections()) === 0);
  });

  it("relays an answer the ingest sent before the upload finished", async () => {
    fake.response.respondBeforeBody = true;
    fake.response.status = 429;
    fake.response.headers = { "retry-after": "30" };
    const req = open(tunnel.port, "/monitoring?p=42");
    const response = responseOf(req);
    req.write(headerLine);
    const res = await response;
    expect(res.status).toBe(429);
    expect(res.headers["retry-after"]).toBe("30");
    req.destroy();
    await until(async () => (await tunnel.connections()) === 0);
  });
});

describe("upstream failures", () => {
  it("answers 504 when the ingest sends no response headers in time", async () => {
    fake.response.hang = true;
    const started = performance.now();
    const res = await send(tunnel.port, "/monitoring?p=42", { body: envelope(dsn) });
    expect(res.status).toBe(504);
    expect(res.json()).toEqual({ detail: "Sentry ingest timed out" });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(fake.requests[0]?.complete).toBe(true);
    expect(tunnel.counts.rejected.upstream_timeout).toBe(1);
  });

  it("answers 502 when the ingest refuses the connection", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = `http://abc123@127.0.0.1:${port}/42`;
    const server = await startTunnel({ allowedDsns: [refused] });
    try {
      const res = await send(server.port, "/monitoring?p=42", { body: envelope(refused) });
      expect(res.status).toBe(502);
      expect(res.json()).toEqual({ detail: "Sentry ingest unreachable" });
      expect(server.counts.rejected).toEqual({ upstream_unreachable: 1 });
      expect(server.log.map((line) => line.obj)).toEqual([
        { reason: "upstream_unreachable", status: 502, code: "ECONNREFUSED" },
      ]);
    } finally {
      await server.close();
    }
  });

  it("cuts the client's answer when the ingest announces more than it sends", async () => {
    const short = createTcpServer((socket) => {
      socket.once("data", () =>
        socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"id"'),
      );
    });
    await new Promise<void>((resolve) => short.listen(0, "127.0.0.1", resolve));
    const shortDsn = `http://abc123@127.0.0.1:${(short.address() as AddressInfo).port}/42`;
    const server = await startTunnel({ allowedDsns: [shortDsn] });
    try {
      await expect(send(server.port, "/monitoring?p=42", { body: envelope(shortDsn) })).rejects.toThrow();
    } finally {
      await server.close();
      await new Promise((resolve) => short.close(resolve));
    }
  });

  it("answers 502 when the ingest's answer is not valid HTTP, without relaying any of it", async () => {
    const garbage = createTcpServer((socket) => {
      socket.once("data", () => socket.end("HTTP/1.1 429 Nope\r\nRetry-After: a\x7fb\r\nSet-Cookie: x\r\n\r\n"));
    });
    await new Promise<void>((resolve) => garbage.listen(0, "127.0.0.1", resolve));
    const broken = `http://abc123@127.0.0.1:${(garbage.address() as AddressInfo).port}/42`;
    const server = await startTunnel({ allowedDsns: [broken] });
    try {
      const res = await send(server.port, "/monitoring?p=42", { body: envelope(broken) });
      expect(res.status).toBe(502);
      expect(res.json()).toEqual({ detail: "Sentry ingest unreachable" });
      expect(res.headers["retry-after"]).toBeUndefined();
      expect(res.headers["set-cookie"]).toBeUndefined();
    } finally {
      await server.close();
      await new Promise((resolve) => garbage.close(resolve));
    }
  });
});
