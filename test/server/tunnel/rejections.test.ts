import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeIngest, startFakeIngest } from "../../support/fake-ingest";
import { envelope, send, startTunnel, type TunnelServer } from "./harness";

let fake: FakeIngest;
let tunnel: TunnelServer;
let dsn: string;
// A second listener playing the attacker's host: nothing may ever reach it.
let evil: Server;
let evilHits = 0;
let evilPort = 0;

beforeAll(async () => {
  fake = await startFakeIngest();
  evil = createServer((_req, res) => {
    evilHits += 1;
    res.end();
  });
  await new Promise<void>((resolve) => evil.listen(0, "127.0.0.1", resolve));
  evilPort = (evil.address() as AddressInfo).port;
  dsn = `http://abc123@127.0.0.1:${fake.port}/42`;
  tunnel = await startTunnel({ allowedDsns: [dsn], maxBytes: 100_000 });
});
afterEach(() => {
  fake.reset();
  tunnel.log.length = 0;
});
afterAll(async () => {
  await tunnel.close();
  await fake.close();
  evil.closeAllConnections();
  await new Promise((resolve) => evil.close(resolve));
});

describe("our own answers", () => {
  it.each(["GET", "PUT", "DELETE", "OPTIONS", "PATCH"])("answers %s with 405 and Allow: POST", async (method) => {
    const res = await send(tunnel.port, "/monitoring?p=42", { method });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("POST");
    expect(res.json()).toEqual({ detail: "only POST is allowed" });
  });

  it("answers HEAD with 405 too", async () => {
    const res = await send(tunnel.port, "/monitoring?p=42", { method: "HEAD" });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("POST");
  });

  it.each(["/Monitoring?p=42", "/monitoring/x?p=42", "/monitoringx?p=42", "/monitoring//?p=42"])(
    "does not answer other paths (%s)",
    async (path) => {
      const res = await send(tunnel.port, path, { body: envelope(dsn) });
      expect(res.status).toBe(404);
    },
  );

  it.each([
    ["no project", "/monitoring", () => envelope(dsn), "missing query parameter p"],
    ["a header that is not JSON", "/monitoring?p=42", () => Buffer.from("not json\n{}"), "envelope header is not JSON"],
    ["a header that is no object", "/monitoring?p=42", () => Buffer.from("[1]\n"), "envelope header is not a JSON object"],
    ["a header without dsn", "/monitoring?p=42", () => Buffer.from('{"event_id":"x"}\n{}'), "envelope header has no dsn"],
    ["a dsn that is no DSN", "/monitoring?p=42", () => envelope("https://example.com/"), "envelope dsn is not a valid DSN"],
    ["an empty body", "/monitoring?p=42", () => Buffer.alloc(0), "empty envelope"],
    ["a project other than the dsn's", "/monitoring?p=43", () => envelope(dsn), "query does not match the envelope dsn"],
    ["an organisation on a self-hosted dsn", "/monitoring?o=1&p=42", () => envelope(dsn), "query does not match the envelope dsn"],
  ])("answers 400 for %s", async (_case, path, body, detail) => {
    const res = await send(tunnel.port, path, { body: body() });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ detail });
    expect(fake.requests).toHaveLength(0);
  });

  it("answers 400 when the first line is longer than 64 KiB", async () => {
    const long = Buffer.concat([Buffer.from(`{"dsn":"${dsn}","pad":"`), Buffer.alloc(70_000, 0x61), Buffer.from('"}\n')]);
    const res = await send(tunnel.port, "/monitoring?p=42", { body: [long.subarray(0, 30_000), long.subarray(30_000)] });
    expect(res.status).toBe(400);
    expect(res.json().detail).toBe("envelope header line longer than 64 KiB");
    expect(fake.requests).toHaveLength(0);
  });

  it("accepts a first line just under 64 KiB", async () => {
    const header = JSON.stringify({ dsn, pad: "a".repeat(65_000) });
    const res = await send(tunnel.port, "/monitoring?p=42", { body: Buffer.from(`${header}\n{}`) });
    expect(res.status).toBe(200);
  });

  it("answers 400 for an unsupported or lying Content-Encoding", async () => {
    const unsupported = await send(tunnel.port, "/monitoring?p=42", {
      body: envelope(dsn),
      headers: { "content-encoding": "zstd" },
    });
    expect(unsupported.status).toBe(400);
    expect(unsupported.json().detail).toBe("unsupported Content-Encoding");
    const lying = await send(tunnel.port, "/monitoring?p=42", {
      body: envelope(dsn),
      headers: { "content-encoding": "gzip" },
    });
    expect(lying.status).toBe(400);
    expect(lying.json().detail).toBe("body does not match its Content-Encoding");
    expect(fake.requests).toHaveLength(0);
  });

  it.each([
    ["another public key", (port: number) => `http://other@127.0.0.1:${port}/42`],
    ["another host", () => `http://abc123@localhost:${evilPort}/42`],
    ["another port", () => `http://abc123@127.0.0.1:${evilPort}/42`],
    ["another protocol", (port: number) => `https://abc123@127.0.0.1:${port}/42`],
    ["another path", (port: number) => `http://abc123@127.0.0.1:${port}/x/42`],
    ["another project", (port: number) => `http://abc123@127.0.0.1:${port}/43`],
  ])("answers 403 for a dsn with %s", async (_case, make) => {
    const other = make(fake.port);
    const project = other.endsWith("43") ? "43" : "42";
    const res = await send(tunnel.port, `/monitoring?p=${project}`, { body: envelope(other) });
    expect(res.status).toBe(403);
    expect(res.json()).toEqual({ detail: "envelope dsn is not allowed" });
    expect(fake.requests).toHaveLength(0);
    expect(evilHits).toBe(0);
  });

  it("answers 413 at once for a Content-Length over the cap", async () => {
    const res = await send(tunnel.port, "/monitoring?p=42", { body: envelope(dsn, ["x".repeat(100_001)]) });
    expect(res.status).toBe(413);
    expect(res.json()).toEqual({ detail: "envelope larger than 100000 bytes" });
    expect(fake.requests).toHaveLength(0);
  });

  it("logs one short line per rejection, without the DSN or the body", async () => {
    await send(tunnel.port, "/monitoring?p=42", { body: envelope(`http://other@127.0.0.1:${fake.port}/42`) });
    expect(tunnel.log).toHaveLength(1);
    expect(tunnel.log[0]?.obj).toEqual({ reason: "forbidden", status: 403 });
    expect(JSON.stringify(tunnel.log)).not.toContain("other@");
  });
});

describe("SSRF attempts", () => {
  const attempts = [
    "o=1@127.0.0.1&p=42",
    "o=1@evil.com&p=42",
    "o=1%40evil.com&p=42",
    "p=42&o=1&r=../",
    "p=42&o=1&r=evil.com%23",
    "p=42&o=1&r=evil.com#",
    "p=1/../../x",
    "p=42/../../x",
    "p=42%2F..%2F..%2Fx",
    "p=42&p=43",
    `p=${"4".repeat(5_000)}`,
    `p=42&o=1&r=${"a".repeat(100)}`,
    // Unicode reaches the server percent-encoded: fullwidth and Arabic-Indic digits, an accented region.
    "p=%EF%BC%94%EF%BC%92",
    "p=%D9%A4%D9%A2",
    "p=42&o=1&r=d%C3%A9",
    "p=42&o=1&r=DE",
    "p=42&r=de",
    "p=42&host=evil.com",
    "p=42%00",
    "p=%2042",
    "p=42+",
    "p=-42",
  ];
  it.each(attempts)("?%s reaches nothing and answers 400", async (query) => {
    const res = await send(tunnel.port, `/monitoring?${query.replace("evil.com", `127.0.0.1:${evilPort}`)}`, {
      body: envelope(`http://abc123@127.0.0.1:${evilPort}/42`),
    });
    expect(res.status).toBe(400);
    expect(res.json().detail).toMatch(/query/);
    expect(fake.requests).toHaveLength(0);
    expect(evilHits).toBe(0);
  });

  it("never follows a dsn in the envelope that is not allowed, whatever the query says", async () => {
    const res = await send(tunnel.port, "/monitoring?p=42", {
      body: envelope(`http://abc123@127.0.0.1:${evilPort}/42`),
    });
    expect(res.status).toBe(403);
    expect(evilHits).toBe(0);
  });
});
