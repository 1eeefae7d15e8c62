import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Limiter } from "#src/server/limits/limiter";
import { LocalLimiter } from "#src/server/limits/local-limiter";
import { createRateLimits } from "#src/server/limits/rate-limits";
import { sharedLimiter } from "#src/server/limits/shared-limiter";
import { createRedisConnection, type RedisConnection } from "#src/server/redis/redis-connection";
import { probeEventLoop } from "../../support/event-loop-probe";
import { until } from "../../support/raw-http";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { memoryLogger } from "../../support/test-app";

const TIMEOUT_MS = 100;

describe.skipIf(!redisAvailable)("the shared limits while Redis stalls or is down", () => {
  let redis: TestRedis;
  let connection: RedisConnection;
  const fallbacks: Limiter[] = [];
  // The platform's limits on this connection, keeping each limit's fallback for the test to look at.
  const limits = () =>
    createRateLimits((name, points, duration, fallback) => {
      fallbacks.push(fallback);
      return sharedLimiter(connection, name, points, duration, fallback);
    });
  beforeAll(async () => {
    redis = await startRedis();
    // Probed rarely: the stall must be met by the commands themselves, before the probe notices it.
    connection = createRedisConnection({ url: redis.url, timeoutMs: TIMEOUT_MS, logger: memoryLogger().logger, probeIntervalMs: 60_000 });
    await until(() => connection.up, 5_000);
  });
  afterAll(async () => {
    await connection.close();
    await redis.stop();
  });

  it("decides every use while Redis is full and refuses its writes (OOM): counted in the process's limiter, never an error", async () => {
    const limiter = limits().limiter("full", 10, 60);
    expect(await limiter.take("warm")).toEqual({ ok: true });
    await connection.client.config("SET", "maxmemory-policy", "noeviction");
    await connection.client.config("SET", "maxmemory", "1");
    try {
      await expect(connection.client.set("outpost:full-probe", "x")).rejects.toThrow(/OOM/);
      const decisions = await Promise.all(Array.from({ length: 30 }, () => limiter.take("client")));
      // The fallback's limit holds: no more than the limit is let through for one client.
      expect(decisions.filter((decision) => decision.ok).length).toBeLessThanOrEqual(10);
      expect(decisions.at(-1)).toMatchObject({ ok: false });
    } finally {
      await connection.client.config("SET", "maxmemory", "0");
    }
  });

  it("settles every command within REDIS_TIMEOUT_MS × 1.5 while Redis is frozen, 50 limiter takes and 50 reads arriving together", async () => {
    const limiter = limits().limiter("stalled", 1_000, 60);
    // The limiter's script is loaded once first, as on any replica that has served a request.
    expect(await limiter.take("warm")).toEqual({ ok: true });
    redis.pause();
    // A timer the machine fires late (other processes on its cores) makes every command late by as much.
    const loop = probeEventLoop();
    try {
      const settled = async (command: () => unknown) => {
        const started = performance.now();
        await Promise.resolve(command()).catch(() => {});
        return performance.now() - started;
      };
      // Spread over more than one timeout, so that later commands arrive while earlier ones wait.
      const durations = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          new Promise((resolve) => setTimeout(resolve, i * 3)).then(() =>
            Promise.all([settled(() => limiter.take(`client-${i}`)), settled(() => connection.client.get(`outpost:session:${i}`))]),
          ),
        ),
      );
      expect(Math.max(...durations.flat())).toBeLessThan(TIMEOUT_MS * 1.5 + loop.maxLateMs);
    } finally {
      loop.stop();
      redis.resume();
    }
  });

  it("while Redis is down, counts in the same bounded per-process limiter as without Redis: 20,000 clients leave at most 10,000 keys", async () => {
    await redis.kill();
    try {
      await until(() => !connection.up);
      const limiter = limits().limiter("down", 5, 60);
      for (let i = 0; i < 20_000; i++) expect(await limiter.take(`203.0.113.${i}`)).toEqual({ ok: true });
      const fallback = fallbacks.at(-1);
      expect(fallback).toBeInstanceOf(LocalLimiter);
      expect((fallback as LocalLimiter).size).toBe(10_000);
      // Still a limit: one client's sixth use in the minute is refused.
      for (let i = 0; i < 5; i++) await limiter.take("198.51.100.7");
      expect(await limiter.take("198.51.100.7")).toMatchObject({ ok: false });
    } finally {
      await redis.start();
    }
  });
});
