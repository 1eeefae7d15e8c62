import { randomBytes } from "node:crypto";
import Cookies from "cookies";
import Keygrip from "keygrip";
import type { Context } from "koa";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRedisConnection, type RedisConnection } from "#src/server/redis/redis-connection";
import { MAX_BATCH_KEYS } from "#src/server/sessions/batched-reads";
import { redisStore } from "#src/server/sessions/redis-store";
import { FLASH_KEY, type SessionStore, type SessionValues } from "#src/server/sessions/session-store";
import { until } from "../../support/raw-http";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { memoryLogger } from "../../support/test-app";

const keys = new Keygrip(["a-batched-reads-session-secret-long-enough"]);

/** A request carrying the signed cookie of session `id` (or this signature), as much of one as the store reads. */
function requestOf(id: string, signature = keys.sign(`outpost.session=${id}`)): Context {
  const cookie = `outpost.session=${id}; outpost.session.sig=${signature}`;
  const req = { headers: { cookie } };
  return { req, cookies: new Cookies(req as never, {} as never, { keys }), app: { keys } } as unknown as Context;
}

/** Scripts Redis has run so far (ioredis sends a script whole once per connection, then by its hash). */
async function scriptCallsOf(connection: RedisConnection): Promise<number> {
  const stats = await connection.client.info("commandstats");
  return [...stats.matchAll(/^cmdstat_(?:eval|evalsha):calls=(\d+)/gm)].reduce((sum, [, calls]) => sum + Number(calls), 0);
}

// The reads of one event-loop turn go to Redis as one script call (docs/decisions/0107-session-reads-batched-per-turn.md).
describe.skipIf(!redisAvailable)("the Redis session reads of one turn", () => {
  let redis: TestRedis;
  let connection: RedisConnection;
  let store: SessionStore;
  beforeAll(async () => {
    redis = await startRedis();
    connection = createRedisConnection({ url: redis.url, timeoutMs: 5_000, logger: memoryLogger().logger, probeIntervalMs: 60_000 });
    store = redisStore(connection);
    await until(() => connection.up, 5_000);
  });
  afterEach(async () => {
    await connection.client.config("SET", "maxmemory", "0");
  });
  afterAll(async () => {
    await connection.close();
    await redis.stop();
  });

  /** A stored session with these fields (v:<key> a value, f:<key> a flash), and its id. */
  const stored = async (fields: Record<string, unknown>) => {
    const id = randomBytes(32).toString("base64url");
    const flat = Object.entries(fields).flatMap(([field, value]) => [field, JSON.stringify(value)]);
    await connection.client.hset(`outpost:session:${id}`, "_", "1", ...flat);
    return id;
  };
  const scriptCalls = () => scriptCallsOf(connection);
  const valuesOf = (reads: Promise<{ values: SessionValues }>[]) => Promise.all(reads).then((sessions) => sessions.map((session) => session.values));

  it("reads the sessions asked for in one turn with one script call, each its own values", async () => {
    const ids = [await stored({ "v:user": "ada" }), await stored({ "v:user": "grace", "v:visits": 3 }), await stored({})];
    await store.read(requestOf(ids[0] as string)); // the script is loaded
    const before = await scriptCalls();
    const reads = [...ids, "a".repeat(43)].map((id) => store.read(requestOf(id)) as Promise<{ values: SessionValues }>);
    const values = await valuesOf(reads);
    expect(await scriptCalls()).toBe(before + 1);
    expect(values.map((v) => ({ ...v }))).toEqual([{ user: "ada" }, { user: "grace", visits: 3 }, {}, {}]);
  });

  it(`reads at most ${MAX_BATCH_KEYS} sessions a script call: a turn with more sends more calls, every read answered`, async () => {
    const id = await stored({ "v:user": "ada" });
    const before = await scriptCalls();
    const values = await valuesOf(Array.from({ length: MAX_BATCH_KEYS + 1 }, () => store.read(requestOf(id)) as Promise<{ values: SessionValues }>));
    expect(await scriptCalls()).toBe(before + 2);
    expect(values.every((v) => v.user === "ada")).toBe(true);
  });

  it("gives a flash to exactly one of two reads of one session in the same turn", async () => {
    const id = await stored({ "v:user": "ada", "f:notice": "Saved" });
    const values = await valuesOf([store.read(requestOf(id)), store.read(requestOf(id))] as Promise<{ values: SessionValues }>[]);
    expect(values.map((v) => v.user)).toEqual(["ada", "ada"]);
    expect(values.map((v) => (v[FLASH_KEY] as SessionValues | undefined)?.notice)).toEqual(["Saved", undefined]);
  });

  it("fails only the read Redis refuses (out of memory as it takes a flash); the other reads of its turn stand", async () => {
    const flashed = await stored({ "v:user": "ada", "f:notice": "Saved" });
    const plain = await stored({ "v:user": "grace" });
    await connection.client.config("SET", "maxmemory", "1");
    const [refused, read] = await Promise.allSettled([store.read(requestOf(flashed)), store.read(requestOf(plain))]);
    expect(refused.status).toBe("rejected");
    expect(String((refused as PromiseRejectedResult).reason)).toMatch(/OOM/);
    expect(read).toMatchObject({ status: "fulfilled", value: { values: { user: "grace" } } });
  });
});

// A frozen or killed Redis under a turn's batch: every read of it fails within the timeout, none hangs, and reads work again once Redis does.
describe.skipIf(!redisAvailable)("the Redis session reads of one turn, Redis frozen or killed", () => {
  const TIMEOUT_MS = 300;
  let redis: TestRedis;
  let connection: RedisConnection;
  let store: SessionStore;
  beforeAll(async () => {
    redis = await startRedis();
    connection = createRedisConnection({ url: redis.url, timeoutMs: TIMEOUT_MS, logger: memoryLogger().logger, probeIntervalMs: 100 });
    store = redisStore(connection);
    await until(() => connection.up, 5_000);
  });
  afterAll(async () => {
    redis.resume();
    await connection.close();
    await redis.stop();
  });

  const session = async () => {
    const id = randomBytes(32).toString("base64url");
    await connection.client.hset(`outpost:session:${id}`, "_", "1", "v:user", JSON.stringify("ada"));
    return id;
  };
  /** Each read's outcome and how long the slowest took to settle. */
  const readAll = async (ids: string[]) => {
    const started = performance.now();
    const outcomes = await Promise.allSettled(ids.map((id) => store.read(requestOf(id)) as Promise<{ values: SessionValues }>));
    return { outcomes, ms: performance.now() - started };
  };

  it("fails every read of a batch Redis never answers (frozen), within a few timeouts; the next batch after it resumes reads the session", async () => {
    const id = await session();
    redis.pause();
    try {
      const { outcomes, ms } = await readAll(Array.from({ length: 30 }, () => id));
      expect(outcomes.every((outcome) => outcome.status === "rejected")).toBe(true);
      // A timeout, not a hang: generous for a loaded machine, far below "never".
      expect(ms).toBeLessThan(TIMEOUT_MS * 10);
    } finally {
      redis.resume();
    }
    await until(async () => (await readAll([id])).outcomes[0]?.status === "fulfilled", 10_000);
    const { outcomes } = await readAll([id, id]);
    expect(outcomes).toMatchObject([
      { status: "fulfilled", value: { values: { user: "ada" } } },
      { status: "fulfilled", value: { values: { user: "ada" } } },
    ]);
  });

  it("fails every read of a batch at once while Redis is down (killed), and reads again once it is back", async () => {
    await redis.kill();
    try {
      await until(() => !connection.up, 5_000);
      const { outcomes, ms } = await readAll(Array.from({ length: 30 }, () => "b".repeat(43)));
      expect(outcomes.every((outcome) => outcome.status === "rejected")).toBe(true);
      expect(ms).toBeLessThan(TIMEOUT_MS * 10);
    } finally {
      await redis.start();
    }
    await until(() => connection.up, 10_000);
    const id = await session();
    const { outcomes } = await readAll([id]);
    expect(outcomes).toMatchObject([{ status: "fulfilled", value: { values: { user: "ada" } } }]);
  });

  it("reads a forged cookie as an empty session without asking Redis", async () => {
    const before = await scriptCallsOf(connection);
    expect(before).toBeGreaterThan(0); // the reads above ran the script
    expect(await store.read(requestOf("c".repeat(43), "forged"))).toMatchObject({ values: {} });
    expect(await scriptCallsOf(connection)).toBe(before);
  });
});
