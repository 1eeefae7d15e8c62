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

/** A request carrying the signed cookie of session `id`, as much of one as the store reads. */
function requestOf(id: string): Context {
  const cookie = `outpost.session=${id}; outpost.session.sig=${keys.sign(`outpost.session=${id}`)}`;
  const req = { headers: { cookie } };
  return { req, cookies: new Cookies(req as never, {} as never, { keys }), app: { keys } } as unknown as Context;
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
  /** Scripts Redis has run so far (ioredis sends a script whole once per connection, then by its hash). */
  const scriptCalls = async () => {
    const stats = await connection.client.info("commandstats");
    return [...stats.matchAll(/^cmdstat_(?:eval|evalsha):calls=(\d+)/gm)].reduce((sum, [, calls]) => sum + Number(calls), 0);
  };
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
