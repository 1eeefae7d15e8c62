import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CacheEntry } from "#src/server/page-cache/page-store";
import { redisPageStore } from "#src/server/page-cache/redis-page-store";
import { createRedisConnection, type RedisConnection } from "#src/server/redis/redis-connection";
import { until } from "../../support/raw-http";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { memoryLogger } from "../../support/test-app";

const BUILD = "build-a";
const BUDGET = 256 * 1024;
/** About 2.5 KB of JSON each: a hundred fill the budget. */
const BODY = 2_400;

function entry(name: string, tags: string[], ttlMs = 60_000): CacheEntry {
  const now = Date.now();
  return {
    stored: { kind: "data", status: 200, headers: { "content-type": "application/json" }, body: name.padEnd(BODY, "."), etag: `W/"${name}"`, storedAt: now },
    freshUntil: now + ttlMs,
    staleUntil: now + ttlMs,
    tags,
  };
}

let redis: TestRedis;
let connection: RedisConnection;

/** Every key the page cache keeps in Redis, with the memory Redis says each takes. */
async function pageKeys(): Promise<Map<string, number>> {
  const keys = await connection.client.keys("outpost:page*");
  const sizes = new Map<string, number>();
  for (const key of keys) sizes.set(key, Number(await connection.client.memory("USAGE", key, "SAMPLES", "0")));
  return sizes;
}

/** A store's read followed by a write of its render, as the page cache does. */
async function keep(store: ReturnType<typeof redisPageStore>, key: string, kept: CacheEntry) {
  const { readAt } = await store.get(key);
  return store.set(key, kept, readAt);
}

describe.skipIf(!redisAvailable)("the page store in Redis", () => {
  beforeAll(async () => {
    redis = await startRedis();
    connection = createRedisConnection({ url: redis.url, timeoutMs: 1_000, logger: memoryLogger().logger });
    await until(() => connection.up, 5_000);
  });
  afterAll(async () => {
    await connection.close();
    await redis.stop();
  });
  beforeEach(() => connection.client.flushall());

  it("holds a build's pages within PAGE_CACHE_REDIS_MAX_MB, least recently used evicted first, never touching other keys", async () => {
    await connection.client.set("outpost:session:visitor", "kept");
    await connection.client.set("outpost:asset:other-build", "kept");
    const store = redisPageStore(connection, { maxBytes: BUDGET });
    await keep(store, `${BUILD}|popular`, entry("popular", ["catalogue"]));
    for (let i = 0; i < 500; i++) {
      await keep(store, `${BUILD}|flood-${i}`, entry(`flood-${i}`, ["catalogue"]));
      // A page visitors keep reading survives the flood.
      if (i % 20 === 0) expect((await store.get(`${BUILD}|popular`)).entry).toBeDefined();
    }

    const sizes = await pageKeys();
    const total = [...sizes.values()].reduce((sum, size) => sum + size, 0);
    expect(total).toBeLessThanOrEqual(BUDGET);
    expect(total).toBeGreaterThan(BUDGET / 2);
    expect((await store.get(`${BUILD}|flood-0`)).entry).toBeUndefined();
    expect((await store.get(`${BUILD}|flood-499`)).entry).toBeDefined();
    expect((await store.get(`${BUILD}|popular`)).entry).toBeDefined();
    expect(await connection.client.get("outpost:session:visitor")).toBe("kept");
    expect(await connection.client.get("outpost:asset:other-build")).toBe("kept");

    // The tag index holds exactly the entries still kept: evicted ones left it.
    const live = [...sizes.keys()].filter((key) => key.startsWith("outpost:page:")).length;
    expect(await connection.client.zcard("outpost:page-tagged:catalogue")).toBe(live);
    expect(live).toBeLessThan(150);
  });

  it("lets expired entries leave their tag indexes and the build's count as pages are written", async () => {
    const store = redisPageStore(connection, { maxBytes: BUDGET });
    for (let i = 0; i < 50; i++) await keep(store, `${BUILD}|short-${i}`, entry(`short-${i}`, ["briefly", "path:/short"], 50));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await keep(store, `${BUILD}|long`, entry("long", ["briefly", "path:/short"]));

    expect(await connection.client.zrange("outpost:page-tagged:briefly", "0", "-1")).toEqual([`${BUILD}|long`]);
    expect(await connection.client.zrange("outpost:page-tagged:path:/short", "0", "-1")).toEqual([`${BUILD}|long`]);
    expect(await connection.client.zrange(`outpost:page-lru:${BUILD}`, "0", "-1")).toEqual([`${BUILD}|long`]);
    expect(await connection.client.hkeys(`outpost:page-meta:${BUILD}`)).toEqual([`${BUILD}|long`]);
  });

  it("refuses a render that read before a drop of one of its tags, and keeps one that read after", async () => {
    const store = redisPageStore(connection, { maxBytes: BUDGET });
    const before = await store.get(`${BUILD}|page`);
    await store.dropTag("articles");
    expect(await store.set(`${BUILD}|page`, entry("old", ["articles"]), before.readAt)).toBe(false);
    expect((await store.get(`${BUILD}|page`)).entry).toBeUndefined();
    // A render that read after the drop saw the new data.
    expect(await keep(store, `${BUILD}|page`, entry("new", ["articles"]))).toBe(true);
    expect((await store.get(`${BUILD}|page`)).entry?.stored.body).toMatch(/^new/);
  });

  it("drops a tag of thousands of entries in one short command, every entry unservable at once and deleted in batches", async () => {
    const store = redisPageStore(connection, { maxBytes: 64 * 1024 * 1024 });
    for (let i = 0; i < 2_000; i++) await keep(store, `${BUILD}|many-${i}`, entry(`many-${i}`, ["many"]));
    const started = process.hrtime.bigint();
    await store.dropTag("many");
    // One batch (of 200) per command: far from REDIS_TIMEOUT_MS's default of 100 ms.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(100);
    expect((await store.get(`${BUILD}|many-1999`)).entry).toBeUndefined();
    await until(async () => (await connection.client.zcard("outpost:page-tagged:many")) === 0);
    expect(await connection.client.keys("outpost:page:*")).toEqual([]);
    expect(await connection.client.get(`outpost:page-bytes:${BUILD}`)).toBe("0");
  });
});
