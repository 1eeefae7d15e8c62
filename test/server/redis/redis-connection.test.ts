import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadEnv } from "#src/server/config/env.server";
import { createRedisConnection, type RedisConnection } from "#src/server/redis/redis-connection";
import { until } from "../../support/raw-http";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { runFailingStart } from "../../support/server-process";
import { memoryLogger } from "../../support/test-app";

describe("REDIS_URL", () => {
  it.each([
    ["http://127.0.0.1:6379", "REDIS_URL: has the scheme http: (expected redis: or rediss: for TLS)"],
    ["redis://", "REDIS_URL: names no host"],
    ["not a url", "REDIS_URL: is not a URL"],
    ["redis://u:s3cret@host:6379/zero", "REDIS_URL: may only name a database number"],
    ["redis://u:s3cret@host:6379/1.5", "REDIS_URL: may only name a database number"],
  ])("refuses %s at start, naming the variable and never echoing the value", (url, message) => {
    expect(() => loadEnv({ REDIS_URL: url })).toThrow(message);
    try {
      loadEnv({ REDIS_URL: url });
    } catch (error) {
      expect((error as Error).message).not.toContain("s3cret");
    }
  });

  it("takes redis:// and rediss:// with user, password and database", () => {
    expect(loadEnv({ REDIS_URL: "redis://user:pw@10.0.0.1:6380/2" }).REDIS_URL).toBe("redis://user:pw@10.0.0.1:6380/2");
    expect(loadEnv({ REDIS_URL: "rediss://:pw@cache.internal" }).REDIS_TIMEOUT_MS).toBe(100);
  });
});

describe.skipIf(!redisAvailable)("the platform's Redis connection", () => {
  let redis: TestRedis;
  let connection: RedisConnection | undefined;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await connection?.close();
    await redis.stop();
  });

  it("starts without Redis, connects when it appears, warns once per outage and never logs the password", async () => {
    await redis.kill();
    const { logger, lines } = memoryLogger();
    connection = createRedisConnection({ url: `redis://:hunter2-password@127.0.0.1:${redis.port}`, timeoutMs: 100, logger });
    await until(() => lines.some((line) => line.level === 40));
    expect(connection.up).toBe(false);
    await expect(connection.client.ping()).rejects.toThrow();
    await redis.start();
    await until(() => connection?.up === true, 5_000);
    await redis.kill();
    await until(() => connection?.up === false);
    await redis.start();
    await until(() => connection?.up === true, 5_000);
    expect(lines.filter((line) => line.level === 40)).toHaveLength(2);
    expect(JSON.stringify(lines)).not.toContain("hunter2");
  });

  it("stops start-up with exit 1 when the server refuses REDIS_URL's database, naming it and never the password", async () => {
    // Valid as a URL (the number of databases is the server's setting), refused once connected.
    const { code, stderr } = await runFailingStart({ REDIS_URL: `redis://:s3cret-pw@127.0.0.1:${redis.port}/99` });
    expect(code).toBe(1);
    expect(stderr).toContain("Invalid environment configuration");
    expect(stderr).toContain("REDIS_URL: names database 99, which this Redis does not have");
    expect(stderr).not.toContain("s3cret");
  });

  it("fails a command within the timeout while Redis stalls, never hangs", async () => {
    const stalled = connection as RedisConnection;
    await until(() => stalled.up, 5_000);
    redis.pause();
    const started = performance.now();
    try {
      await expect(stalled.client.get("anything")).rejects.toThrow(/timed out/i);
      expect(performance.now() - started).toBeLessThan(400);
    } finally {
      redis.resume();
    }
  });

  it("sends the commands of one turn of the event loop in one socket write, each answered and timed on its own", async () => {
    const live = connection as RedisConnection;
    await until(() => live.up, 5_000);
    // The socket's own write functions, which Writable calls once per write it hands the system.
    const socket = live.client.stream as unknown as { _write: (...args: unknown[]) => void; _writev: (...args: unknown[]) => void };
    const writes = vi.spyOn(socket, "_write");
    const batched = vi.spyOn(socket, "_writev");
    try {
      await live.client.set("coalesced", "yes");
      writes.mockClear();
      live.coalesceWrites();
      const answers = await Promise.all(Array.from({ length: 20 }, () => live.client.get("coalesced")));
      expect(answers).toEqual(Array(20).fill("yes"));
      expect(writes.mock.calls.length + batched.mock.calls.length).toBe(1);
    } finally {
      writes.mockRestore();
      batched.mockRestore();
    }
    // Uncorked once the turn ends: a later command goes out at once.
    expect(await live.client.get("coalesced")).toBe("yes");
  });
});
