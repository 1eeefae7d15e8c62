import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Limiter, RateDecision } from "#src/server/limits/limiter";
import { LocalLimiter } from "#src/server/limits/local-limiter";
import { leaseCap, MAX_LEASE, sharedLimiter } from "#src/server/limits/shared-limiter";
import { createRedisConnection, type RedisConnection } from "#src/server/redis/redis-connection";
import { until } from "../../support/raw-http";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { memoryLogger } from "../../support/test-app";

/** How many scripts Redis has run since its statistics were last reset: one per limiter round trip. */
async function scriptCalls(connection: RedisConnection): Promise<number> {
  const stats = await connection.client.info("commandstats");
  return [...stats.matchAll(/cmdstat_(?:evalsha|eval):calls=(\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
}

describe("the lease a replica takes from a shared limit", () => {
  it("is one point below 100 points a window (exact), then 1 % of the limit, at most MAX_LEASE", () => {
    expect([leaseCap(4), leaseCap(99), leaseCap(200), leaseCap(1_000), leaseCap(100_000_000)]).toEqual([1, 1, 2, 10, MAX_LEASE]);
  });

  it("grows to 1,024 points for a limit of 102,400 a window or more, so half a lease outlasts a slow round trip", () => {
    expect([leaseCap(6_400), leaseCap(51_200), leaseCap(102_400), leaseCap(100_000_000)]).toEqual([64, 512, 1_024, 1_024]);
  });
});

describe.skipIf(!redisAvailable)("a busy key's points leased from Redis a few at a time", () => {
  let redis: TestRedis;
  let replicas: RedisConnection[];
  beforeAll(async () => {
    redis = await startRedis();
    replicas = [1, 2].map(() => createRedisConnection({ url: redis.url, timeoutMs: 1_000, logger: memoryLogger().logger }));
    await until(() => replicas.every((connection) => connection.up), 5_000);
  });
  afterEach(async () => {
    await replicas[0]?.client.flushall();
    await replicas[0]?.client.config("RESETSTAT");
  });
  afterAll(async () => {
    await Promise.all(replicas.map((connection) => connection.close()));
    await redis.stop();
  });

  const limiters = (name: string, points: number, durationSeconds: number): Limiter[] =>
    replicas.map((connection) => sharedLimiter(connection, name, points, durationSeconds, new LocalLimiter(points, durationSeconds * 1000, 100)));

  /** `count` uses of one key, in waves of 50 at once, alternating between the replicas. */
  async function spend(of: Limiter[], count: number): Promise<RateDecision[]> {
    const decisions: RateDecision[] = [];
    for (let done = 0; done < count; done += 50) {
      const wave = Array.from({ length: Math.min(50, count - done) }, (_, i) => (of[i % of.length] as Limiter).take("client"));
      decisions.push(...(await Promise.all(wave)));
    }
    return decisions;
  }

  it("never allows more than the limit across replicas, and refuses fewer than 2 leases per replica early", async () => {
    const points = 1_000;
    const decisions = await spend(limiters("busy", points, 60), 1_500);
    const allowed = decisions.filter((decision) => decision.ok).length;
    expect(allowed).toBeLessThanOrEqual(points);
    expect(allowed).toBeGreaterThan(points - replicas.length * 2 * leaseCap(points));
    const refusal = decisions.at(-1);
    expect(refusal?.ok === false && refusal.retryAfterSeconds).toBeGreaterThan(0);
  });

  it("allows exactly a small limit (under 100 points, so no lease) across replicas spending it at once", async () => {
    const decisions = await spend(limiters("small", 10, 60), 40);
    expect(decisions.filter((decision) => decision.ok)).toHaveLength(10);
    // Both replicas were refused once it was spent, neither holding points back.
    expect(decisions.slice(-2).map((decision) => decision.ok)).toEqual([false, false]);
  });

  it("asks Redis far less than once per use of a busy key", async () => {
    const points = 100_000;
    const decisions = await spend(limiters("cheap", points, 60), 1_000);
    expect(decisions.every((decision) => decision.ok)).toBe(true);
    // Leases start at one point and double up to the cap: a few round trips per replica, then one per MAX_LEASE uses.
    expect(await scriptCalls(replicas[0] as RedisConnection)).toBeLessThan(1_000 / 10);
  });

  it("never allows more than a large limit across replicas, and refuses fewer than 2 leases of 1,024 per replica early", async () => {
    const points = 204_800;
    const decisions = await spend(limiters("large", points, 60), points + 10_000);
    const allowed = decisions.filter((decision) => decision.ok).length;
    expect(allowed).toBeLessThanOrEqual(points);
    expect(allowed).toBeGreaterThan(points - replicas.length * 2 * 1_024);
  });

  it("answers a busy key's next 500 uses from its lease while Redis does not answer: none waits for the refill", async () => {
    const [replica] = limiters("reserve", 1_000_000, 60) as [Limiter];
    // Leases double from one point: enough uses to reach the largest, then the refill on its way lands.
    await spend([replica], 5_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    redis.pause();
    try {
      const answers = Array.from({ length: 500 }, () => replica.take("client"));
      expect(answers.filter((answer) => answer instanceof Promise)).toHaveLength(0);
      expect(answers.every((answer) => !(answer instanceof Promise) && answer.ok)).toBe(true);
    } finally {
      redis.resume();
    }
  });

  it("sends the uses of one turn that each need a round trip (a small limit) in one socket write", async () => {
    const [replica] = limiters("small", 60, 60) as [Limiter];
    // The script is loaded once first, as on any replica that has served a request.
    await replica.take("warm");
    const socket = replicas[0]?.client.stream as unknown as { _write: (...args: unknown[]) => void; _writev: (...args: unknown[]) => void };
    const writes = vi.spyOn(socket, "_write");
    const batched = vi.spyOn(socket, "_writev");
    try {
      const decisions = await Promise.all(Array.from({ length: 20 }, (_, i) => replica.take(`client-${i}`)));
      expect(decisions.every((decision) => decision.ok)).toBe(true);
      expect(writes.mock.calls.length + batched.mock.calls.length).toBe(1);
    } finally {
      writes.mockRestore();
      batched.mockRestore();
    }
  });

  it("spends no leased point after Redis's window for the key ends: the next use is counted in the new window", async () => {
    const [replica] = limiters("window", 1_000, 1) as [Limiter];
    await spend([replica], 20);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await replicas[0]?.client.keys("outpost:limit:window*")).toEqual([]);
    expect(await replica.take("client")).toEqual({ ok: true });
    expect(await replicas[0]?.client.keys("outpost:limit:window*")).toHaveLength(1);
  });
});
