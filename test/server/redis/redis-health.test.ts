import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createMetrics } from "#src/server/metrics";
import { createRedisConnection, type RedisConnection } from "#src/server/redis/redis-connection";
import { until } from "../../support/raw-http";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { type LogLine, memoryLogger } from "../../support/test-app";

const TIMEOUT_MS = 250;
/** Short in tests; production probes every 2 s. */
const PROBE_INTERVAL_MS = 100;
/** The end-to-end budget the alert has: the gauge must move well within it. */
const NOTICED_WITHIN_MS = 10_000;

describe.skipIf(!redisAvailable)("outpost_redis_up follows whether Redis answers, and the log says why", () => {
  let redis: TestRedis;
  let admin: Redis;
  let connection: RedisConnection | undefined;
  beforeAll(async () => {
    redis = await startRedis();
    admin = new Redis(redis.url);
  });
  afterEach(async () => {
    await connection?.close();
    connection = undefined;
  });
  afterAll(async () => {
    admin.disconnect();
    await redis.stop();
  });

  function connect(url = redis.url, { timeoutMs = TIMEOUT_MS, onConfigurationError }: { timeoutMs?: number; onConfigurationError?: (message: string) => void } = {}) {
    const { logger, lines } = memoryLogger();
    connection = createRedisConnection({ url, timeoutMs, logger, probeIntervalMs: PROBE_INTERVAL_MS, onConfigurationError });
    const metrics = createMetrics();
    metrics.watchRedis(connection);
    const gauge = async () => (await metrics.registry.getSingleMetricAsString("outpost_redis_up")).trim().split("\n").at(-1);
    const warnings = () => lines.filter((line) => line.level === 40);
    return { connection, lines, gauge, warnings };
  }
  const said = (lines: LogLine[], text: string) => lines.some((line) => line.msg.includes(text));

  it("a frozen Redis (SIGSTOP) reads 0 with one warning naming the timeout, and 1 again once it wakes", async () => {
    const { lines, gauge, warnings } = connect();
    await until(async () => (await gauge()) === "outpost_redis_up 1", 5_000);
    redis.pause();
    try {
      await until(async () => (await gauge()) === "outpost_redis_up 0", NOTICED_WITHIN_MS);
      // Still frozen a while later: one warning for the whole outage.
      await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS * 5));
      expect(warnings()).toHaveLength(1);
      expect(warnings()[0]?.msg).toContain(`timed out: no answer within REDIS_TIMEOUT_MS (${TIMEOUT_MS} ms)`);
    } finally {
      redis.resume();
    }
    await until(async () => (await gauge()) === "outpost_redis_up 1", NOTICED_WITHIN_MS);
    expect(said(lines, "redis: connected again")).toBe(true);
  });

  it("one late answer is no outage: the probe that timed out is asked again at once, no warning, up throughout", async () => {
    const { connection: redisConnection, lines, gauge, warnings } = connect();
    await until(async () => (await gauge()) === "outpost_redis_up 1", 5_000);
    const { client } = redisConnection;
    const set = client.set.bind(client) as (...args: unknown[]) => Promise<unknown>;
    let lateProbe: Promise<string> | undefined;
    // Redis pauses (as for a fork to save, or a slow command) just as the next probe goes out, and
    // wakes before a second one would time out.
    (client as unknown as { set: (...args: unknown[]) => Promise<unknown> }).set = (...args) => {
      if (lateProbe !== undefined) return set(...args);
      redis.pause();
      setTimeout(() => redis.resume(), TIMEOUT_MS * 1.2);
      const sent = set(...args);
      lateProbe = sent.then(() => "answered", (error: Error) => error.message);
      return sent;
    };
    let wasDown = false;
    const watch = setInterval(() => {
      wasDown ||= !redisConnection.up;
    }, 5);
    try {
      await until(() => lateProbe !== undefined, 5_000);
      expect(await lateProbe).toBe("Command timed out");
      await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS + PROBE_INTERVAL_MS * 5));
    } finally {
      clearInterval(watch);
      redis.resume();
    }
    expect(wasDown).toBe(false);
    expect(await gauge()).toBe("outpost_redis_up 1");
    expect(warnings()).toEqual([]);
    expect(said(lines, "redis: connected again")).toBe(false);
  });

  it("a Redis out of memory (maxmemory, noeviction) reads 0 with a warning naming OOM, though it still answers PING", async () => {
    // A generous timeout: filling Redis on a loaded machine must not read as a stall first.
    const { lines, gauge, warnings } = connect(redis.url, { timeoutMs: 2_000 });
    await until(async () => (await gauge()) === "outpost_redis_up 1", 5_000);
    await admin.config("SET", "maxmemory-policy", "noeviction");
    await admin.config("SET", "maxmemory", "1mb");
    try {
      // Filled past its limit: the next write is refused.
      for (let i = 0; i < 40; i++) await admin.set(`filler:${i}`, "x".repeat(64 * 1024)).catch(() => {});
      await expect(admin.set("one-more", "x")).rejects.toThrow(/^OOM/);
      expect(await admin.ping()).toBe("PONG");
      await until(async () => (await gauge()) === "outpost_redis_up 0", NOTICED_WITHIN_MS);
      expect(warnings()).toHaveLength(1);
      expect(warnings()[0]?.msg).toContain("out of memory (OOM)");
    } finally {
      await admin.config("SET", "maxmemory", "0");
      await admin.flushall();
    }
    await until(async () => (await gauge()) === "outpost_redis_up 1", NOTICED_WITHIN_MS);
    expect(said(lines, "redis: connected again")).toBe(true);
  });

  it("a wrong password is logged as an authentication failure, never with the password", async () => {
    await admin.config("SET", "requirepass", "the-right-one");
    try {
      const { lines, gauge, warnings } = connect(`redis://:hunter2-wrong@127.0.0.1:${redis.port}`);
      await until(() => warnings().length > 0, 5_000);
      expect(await gauge()).toBe("outpost_redis_up 0");
      expect(warnings()[0]?.msg).toContain("authentication failed (NOAUTH/WRONGPASS)");
      expect(JSON.stringify(lines)).not.toMatch(/hunter2|the-right-one/);
    } finally {
      await admin.config("SET", "requirepass", "");
    }
  });

  it("a database the server does not have is a configuration error: named, never used as database 0", async () => {
    await admin.flushall();
    let refused: string | undefined;
    const { lines, gauge } = connect(`redis://:s3cret-pw@127.0.0.1:${redis.port}/99`, {
      onConfigurationError: (message) => {
        refused = message;
      },
    });
    await until(() => refused !== undefined, 5_000);
    expect(refused).toContain("names database 99, which this Redis does not have");
    expect(lines.find((line) => line.level === 50)?.msg).toContain("REDIS_URL names database 99");
    // Given up: no reconnecting, no probe writing into database 0.
    await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS * 5));
    expect(await gauge()).toBe("outpost_redis_up 0");
    expect(await admin.keys("*")).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain("s3cret");
  });
});
