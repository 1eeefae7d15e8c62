import { randomBytes } from "node:crypto";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeIngest, startFakeIngest } from "../../support/fake-ingest";
import { envelope, send, startTunnel, type TunnelServer } from "./harness";

let fake: FakeIngest;
let tunnel: TunnelServer;
let dsn: string;

beforeAll(async () => {
  fake = await startFakeIngest();
  dsn = `http://abc123@127.0.0.1:${fake.port}/42`;
  tunnel = await startTunnel({ allowedDsns: [dsn, `http://def456@127.0.0.1:${fake.port}/sentry/7`] });
});
afterEach(() => fake.reset());
afterAll(async () => {
  await tunnel.close();
  await fake.close();
});

describe("forwarding", () => {
  it("relays the envelope byte for byte to the DSN's envelope endpoint and the answer back", async () => {
    const body = envelope(dsn);
    const res = await send(tunnel.port, "/monitoring?p=42", {
      body,
      headers: { "content-type": "text/plain;charset=UTF-8" },
    });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('{"id":"fake"}');
    expect(res.headers["content-type"]).toBe("application/json");
    expect(fake.requests).toHaveLength(1);
    const seen = fake.requests[0];
    expect(seen?.method).toBe("POST");
    expect(seen?.url).toBe("/api/42/envelope/");
    expect(seen?.headers.host).toBe(`127.0.0.1:${fake.port}`);
    expect(seen?.headers["content-type"]).toBe("text/plain;charset=UTF-8");
    expect(seen?.headers["content-length"]).toBe(String(body.length));
    expect(seen?.body.equals(body)).toBe(true);
  });

  it("keeps the DSN's path prefix and accepts a trailing slash on the tunnel path", async () => {
    const other = `http://def456@127.0.0.1:${fake.port}/sentry/7`;
    const res = await send(tunnel.port, "/monitoring/?p=7", { body: envelope(other) });
    expect(res.status).toBe(200);
    expect(fake.requests[0]?.url).toBe("/sentry/api/7/envelope/");
  });

  it("forwards a binary item untouched, chunked when the client sent it chunked", async () => {
    const binary = randomBytes(200_000);
    binary[10] = 0x0a;
    binary[11] = 0x00;
    const body = envelope(dsn, [`{"type":"replay_recording","length":${binary.length}}\n`, binary]);
    const chunks = [body.subarray(0, 1000), body.subarray(1000, 150_000), body.subarray(150_000)];
    const res = await send(tunnel.port, "/monitoring?p=42", { body: chunks });
    expect(res.status).toBe(200);
    const seen = fake.requests[0];
    expect(seen?.headers["content-length"]).toBeUndefined();
    expect(seen?.headers["transfer-encoding"]).toBe("chunked");
    expect(seen?.body.equals(body)).toBe(true);
    expect(tunnel.counts.bytes).toBeGreaterThanOrEqual(body.length);
  });

  it.each([
    ["gzip", gzipSync],
    ["br", brotliCompressSync],
  ])("reads the header of a %s body and forwards the compressed bytes as they are", async (encoding, compress) => {
    const compressed = compress(envelope(dsn, [`{"type":"attachment"}\n`, randomBytes(50_000)]));
    const res = await send(tunnel.port, "/monitoring?p=42", {
      body: compressed,
      headers: { "content-encoding": encoding },
    });
    expect(res.status).toBe(200);
    const seen = fake.requests[0];
    expect(seen?.headers["content-encoding"]).toBe(encoding);
    expect(seen?.body.equals(compressed)).toBe(true);
  });

  it("checks the DSN inside a compressed body too", async () => {
    const res = await send(tunnel.port, "/monitoring?p=42", {
      body: gzipSync(envelope(`http://evil@127.0.0.1:${fake.port}/42`)),
      headers: { "content-encoding": "gzip" },
    });
    expect(res.status).toBe(403);
    expect(fake.requests).toHaveLength(0);
  });

  it("sends only Content-Type, Content-Encoding, Content-Length and X-Sentry-Forwarded-For upstream", async () => {
    const res = await send(tunnel.port, "/monitoring?p=42", {
      body: envelope(dsn),
      headers: {
        "content-type": "text/plain",
        cookie: "session=secret",
        authorization: "Bearer secret",
        "x-forwarded-for": "203.0.113.9",
        "x-real-ip": "203.0.113.9",
        forwarded: "for=203.0.113.9",
        "x-sentry-forwarded-for": "6.6.6.6",
        "x-sentry-auth": "Sentry sentry_key=other",
        origin: "https://example.com",
        "user-agent": "test-browser",
      },
    });
    expect(res.status).toBe(200);
    const headers = fake.requests[0]?.headers ?? {};
    const transport = ["host", "connection", "transfer-encoding", "content-length"];
    const names = Object.keys(headers).filter((name) => !transport.includes(name));
    expect(names.sort()).toEqual(["content-type", "x-sentry-forwarded-for"]);
    expect(headers["x-sentry-forwarded-for"]).toBe("127.0.0.1");
  });

  it("relays the ingest's 429 with Retry-After and X-Sentry-Rate-Limits unchanged, and nothing else", async () => {
    const limits = "60:error;transaction:organization:rate_limit, 2700:default:project";
    fake.response.status = 429;
    fake.response.body = '{"detail":"rate limited"}';
    fake.response.headers = {
      "content-type": "application/json",
      "retry-after": "60",
      "x-sentry-rate-limits": limits,
      "strict-transport-security": "max-age=31536000",
      "set-cookie": ["a=b; Path=/", "c=d"],
      "x-envoy-upstream-service-time": "3",
      server: "nginx",
    };
    const res = await send(tunnel.port, "/monitoring?p=42", { body: envelope(dsn) });
    expect(res.status).toBe(429);
    expect(res.headers["retry-after"]).toBe("60");
    expect(res.headers["x-sentry-rate-limits"]).toBe(limits);
    expect(res.body.toString()).toBe('{"detail":"rate limited"}');
    expect(res.headers["strict-transport-security"]).toBeUndefined();
    expect(res.headers["set-cookie"]).toBeUndefined();
    expect(res.headers["x-envoy-upstream-service-time"]).toBeUndefined();
    expect(res.headers.server).toBeUndefined();
    expect(tunnel.counts.upstream.at(-1)?.status).toBe(429);
  });

  it("relays an ingest error status and body as they are", async () => {
    fake.response.status = 400;
    fake.response.body = '{"detail":"invalid envelope"}';
    const res = await send(tunnel.port, "/monitoring?p=42", { body: envelope(dsn) });
    expect(res.status).toBe(400);
    expect(res.body.toString()).toBe('{"detail":"invalid envelope"}');
  });

  it("passes an empty 204 answer on", async () => {
    fake.response.status = 204;
    fake.response.body = "";
    const res = await send(tunnel.port, "/monitoring?p=42", { body: envelope(dsn) });
    expect(res.status).toBe(204);
    expect(res.body.length).toBe(0);
  });

  it("counts what it forwards and the ingest's answers", async () => {
    const before = { ...tunnel.counts, upstream: tunnel.counts.upstream.length };
    const body = envelope(dsn);
    await send(tunnel.port, "/monitoring?p=42", { body });
    expect(tunnel.counts.forwarded).toBe(before.forwarded + 1);
    expect(tunnel.counts.bytes).toBe(before.bytes + body.length);
    expect(tunnel.counts.upstream).toHaveLength(before.upstream + 1);
    const last = tunnel.counts.upstream.at(-1);
    expect(last?.status).toBe(200);
    expect(last?.seconds).toBeGreaterThan(0);
    expect(last?.seconds).toBeLessThan(5);
  });
});

describe("visitor IP", () => {
  it("believes X-Forwarded-For only when the app trusts the proxy", async () => {
    const trusting = await startTunnel({ allowedDsns: [dsn] }, { proxy: true });
    try {
      const headers = { "x-forwarded-for": "203.0.113.9, 10.0.0.1" };
      expect((await send(trusting.port, "/monitoring?p=42", { body: envelope(dsn), headers })).status).toBe(200);
      expect(fake.requests[0]?.headers["x-sentry-forwarded-for"]).toBe("203.0.113.9");
      expect((await send(tunnel.port, "/monitoring?p=42", { body: envelope(dsn), headers })).status).toBe(200);
      expect(fake.requests[1]?.headers["x-sentry-forwarded-for"]).toBe("127.0.0.1");
      const bogus = { "x-forwarded-for": "not-an-ip" };
      expect((await send(trusting.port, "/monitoring?p=42", { body: envelope(dsn), headers: bogus })).status).toBe(200);
      expect(fake.requests[2]?.headers["x-sentry-forwarded-for"]).toBeUndefined();
    } finally {
      await trusting.close();
    }
  });

  it("sends the visitor IP in one spelling, never reduced to its network as the rate limit counts it", async () => {
    const trusting = await startTunnel({ allowedDsns: [dsn] }, { proxy: true });
    try {
      const spellings = [
        ["[2001:DB8::1:5]:443", "2001:db8::1:5"],
        ["2001:0db8:0000:0000:0000:0000:0001:0005", "2001:db8::1:5"],
        ["198.51.100.5:1234", "198.51.100.5"],
        ["::ffff:198.51.100.5", "198.51.100.5"],
      ];
      for (const [forwarded, sent] of spellings) {
        fake.reset();
        const headers = { "x-forwarded-for": forwarded as string };
        expect((await send(trusting.port, "/monitoring?p=42", { body: envelope(dsn), headers })).status).toBe(200);
        expect(fake.requests[0]?.headers["x-sentry-forwarded-for"]).toBe(sent);
      }
    } finally {
      await trusting.close();
    }
  });
});
