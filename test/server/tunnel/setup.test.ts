import { describe, expect, it } from "vitest";
import { createTunnel, TUNNEL_DEFAULTS } from "#src/server/tunnel";
import { envelope, fakeIngestPerFile, send, startTunnel } from "./harness";

const ingest = fakeIngestPerFile();

const base = {
  path: "/monitoring",
  maxBytes: 1_000,
  rateLimitPerMinute: 0,
  connectTimeoutMs: 1_000,
  headersTimeoutMs: 1_000,
};

describe("createTunnel", () => {
  it("documents its defaults", () => {
    expect(TUNNEL_DEFAULTS).toMatchObject({
      path: "/monitoring",
      maxBytes: 20 * 1024 * 1024,
      rateLimitPerMinute: 60,
      connectTimeoutMs: 5_000,
      headersTimeoutMs: 10_000,
    });
  });

  it("names a bad allowed DSN by position, without its public key", () => {
    const create = () =>
      createTunnel({ ...base, allowedDsns: ["https://good@o1.ingest.sentry.io/2", "https://secretkey@example.com/x"] });
    expect(create).toThrow("allowedDsns[1] (https://***@example.com/x) is not valid: Invalid Sentry DSN: project id");
    expect(create).not.toThrow(/secretkey/);
  });

  it.each([
    [{ allowedDsns: [] }, "allowedDsns is empty"],
    [{ path: "monitoring" }, "path must be"],
    [{ path: "/mon:itor" }, "path must be"],
    [{ path: "/a//b" }, "path must be"],
    [{ maxBytes: 0 }, "maxBytes must be a positive integer"],
    [{ rateLimitPerMinute: -1 }, "rateLimitPerMinute must be a non-negative integer"],
    [{ rateLimitPerMinute: 1, rateLimitMaxClients: 0 }, "rateLimitMaxClients must be a positive integer"],
    [{ rateLimitIpv6Prefix: 0 }, "rateLimitIpv6Prefix must be a whole number of bits from 1 to 128"],
    [{ rateLimitIpv6Prefix: 129 }, "rateLimitIpv6Prefix must be a whole number of bits from 1 to 128"],
    [{ headersTimeoutMs: 1.5 }, "headersTimeoutMs must be a positive integer"],
  ])("refuses %j", (override, message) => {
    expect(() => createTunnel({ ...base, allowedDsns: ["https://k@o1.ingest.sentry.io/2"], ...override })).toThrow(
      message,
    );
  });

  it("forwards through its own keep-alive Agent and closes it", async () => {
    const server = await startTunnel({ allowedDsns: [ingest.dsn] });
    try {
      for (let i = 0; i < 3; i++) {
        expect((await send(server.port, "/monitoring?p=42", { body: envelope(ingest.dsn) })).status).toBe(200);
      }
      expect(ingest.fake.requests).toHaveLength(3);
      expect(new Set(ingest.fake.requests.map((request) => request.remotePort)).size).toBe(1);
    } finally {
      await server.close();
    }
    await expect(server.tunnel.close()).resolves.toBeUndefined();
  });

  it("mounts at a configured path with a trailing slash trimmed", async () => {
    const server = await startTunnel({ allowedDsns: [ingest.dsn], path: "/t/sentry/" });
    try {
      expect((await send(server.port, "/t/sentry?p=42", { body: envelope(ingest.dsn) })).status).toBe(200);
      expect((await send(server.port, "/t/sentry/?p=42", { body: envelope(ingest.dsn) })).status).toBe(200);
      expect((await send(server.port, "/monitoring?p=42", { body: envelope(ingest.dsn) })).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

describe("rate limit", () => {
  it("answers 429 with Retry-After once a client used its envelopes, per client IP", async () => {
    const server = await startTunnel({ allowedDsns: [ingest.dsn], rateLimitPerMinute: 2 }, { proxy: true });
    try {
      const from = (ip: string) => ({ body: envelope(ingest.dsn), headers: { "x-forwarded-for": ip } });
      expect((await send(server.port, "/monitoring?p=42", from("203.0.113.1"))).status).toBe(200);
      expect((await send(server.port, "/monitoring?p=42", from("203.0.113.1"))).status).toBe(200);
      const limited = await send(server.port, "/monitoring?p=42", from("203.0.113.1"));
      expect(limited.status).toBe(429);
      expect(limited.json()).toEqual({ detail: "too many envelopes, retry later" });
      const retryAfter = Number(limited.headers["retry-after"]);
      expect(retryAfter).toBeGreaterThanOrEqual(29);
      expect(retryAfter).toBeLessThanOrEqual(30);
      expect((await send(server.port, "/monitoring?p=42", from("203.0.113.2"))).status).toBe(200);
      expect(ingest.fake.requests).toHaveLength(3);
      expect(server.counts.rejected).toEqual({ rate_limited: 1 });
    } finally {
      await server.close();
    }
  });

  it("is off at 0", async () => {
    const server = await startTunnel({ allowedDsns: [ingest.dsn], rateLimitPerMinute: 0 });
    try {
      for (let i = 0; i < 10; i++) {
        expect((await send(server.port, "/monitoring?p=42", { body: envelope(ingest.dsn) })).status).toBe(200);
      }
    } finally {
      await server.close();
    }
  });
});
