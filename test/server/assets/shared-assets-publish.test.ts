import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { contentHashOf } from "#src/server/assets/asset-headers";
import { sharedAssetLookup } from "#src/server/assets/shared-asset-lookup";
import { publishSharedAssets } from "#src/server/assets/shared-assets";
import { createRedisConnection, type RedisConnection } from "#src/server/redis/redis-connection";
import { fixtureBuild } from "../../support/builds";
import { until } from "../../support/raw-http";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { builtAssets, memoryLogger } from "../../support/test-app";

// Publishing a build's assets and looking up another's, on a real redis-server.

const { files } = builtAssets(fixtureBuild());
const hashed = [...files.keys()].filter((url) => contentHashOf(url) !== undefined);
const HOUR_MS = 3_600_000;

describe.runIf(redisAvailable)("shared assets in Redis", () => {
  let redis: TestRedis;
  let client: Redis;
  const opened: Array<{ close(): unknown }> = [];
  const connect = async (timeoutMs = 100): Promise<RedisConnection> => {
    const connection = createRedisConnection({ url: redis.url, timeoutMs, logger: memoryLogger().logger });
    opened.push(connection);
    await until(() => connection.up, 5_000);
    return connection;
  };
  // Only the assets' keys: the connection's health probe writes a key of its own.
  const assetKeyCount = async () => (await client.keys("outpost:asset:*")).length;
  const setCalls = async () => Number(/cmdstat_set:calls=(\d+)/.exec(await client.info("commandstats"))?.[1] ?? 0);
  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url);
  });
  afterEach(async () => {
    for (const item of opened.splice(0)) await item.close();
    await client.flushall();
  });
  afterAll(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  it("publishes every hashed script and stylesheet once, however many replicas publish", async () => {
    // Every script, stylesheet and media file is hashed; the licence texts linked beside chunks (.LEGAL.txt) are not published.
    expect(hashed.length).toBe([...files.keys()].filter((url) => !url.endsWith(".LEGAL.txt")).length);
    const { logger, lines } = memoryLogger();
    const replicas = [await connect(), await connect()].map((connection) =>
      publishSharedAssets({ redis: connection, files, retentionMs: 24 * HOUR_MS, maxBytes: 50 * 1024 * 1024, logger }),
    );
    opened.push(...replicas);
    const before = await setCalls();
    const outcomes = await Promise.all(replicas.map((replica) => replica.publish()));
    expect(outcomes.reduce((sum, outcome) => sum + (outcome?.published ?? 0), 0)).toBe(hashed.length);
    expect(await assetKeyCount()).toBe(hashed.length);
    const writes = (await setCalls()) - before;
    expect(writes).toBeLessThanOrEqual(2 * hashed.length);

    // Again: only renewed, nothing written.
    const again = await replicas[0]?.publish();
    expect(again).toEqual({ published: 0, refreshed: hashed.length });
    expect((await setCalls()) - before).toBe(writes);
    expect(lines.some((line) => line.msg.startsWith("shared assets: in Redis") && line.published === 0)).toBe(true);
  });

  it("refuses a build over the cap, with a log line naming its size and the cap", async () => {
    const { logger, lines } = memoryLogger();
    const publisher = publishSharedAssets({ redis: await connect(), files, retentionMs: HOUR_MS, maxBytes: 10_000, logger });
    expect(await publisher.publish()).toBeUndefined();
    expect(await assetKeyCount()).toBe(0);
    const refusal = lines.find((line) => line.msg.includes("ASSET_PUBLISH_MAX_MB"));
    expect(refusal?.msg).toMatch(/total \d+\.\d MB, over the ASSET_PUBLISH_MAX_MB cap of 0\.0 MB; not published/);
    expect(refusal?.totalBytes).toBeGreaterThan(10_000);
    expect(refusal?.maxBytes).toBe(10_000);
  });

  it("keeps assets while a replica of their build renews them, and lets them lapse after the retention once none does", async () => {
    const { logger } = memoryLogger();
    const retentionMs = 1_500;
    const publisher = publishSharedAssets({ redis: await connect(), files, retentionMs, maxBytes: 50 * 1024 * 1024, logger });
    opened.push(publisher);
    await publisher.publish();
    const key = `outpost:asset:${hashed[0]}`;
    expect(await client.pttl(key)).toBeGreaterThan(0);
    expect(await client.pttl(key)).toBeLessThanOrEqual(retentionMs);
    // Renewed every second by the running publisher: still there after twice the retention.
    await new Promise((resolve) => setTimeout(resolve, 2 * retentionMs));
    expect(await client.exists(key)).toBe(1);
    publisher.close();
    await until(async () => (await assetKeyCount()) === 0, 3 * retentionMs);
  });

  it("tries a publishing a frozen Redis cut short again once it answers, though the connection never dropped", async () => {
    const { logger, lines } = memoryLogger();
    const connection = await connect(100);
    redis.pause();
    try {
      const publisher = publishSharedAssets({ redis: connection, files, retentionMs: HOUR_MS, maxBytes: 50 * 1024 * 1024, logger });
      opened.push(publisher);
      await publisher.firstAttempt;
      expect(lines.some((line) => line.msg.startsWith("shared assets: publishing failed"))).toBe(true);
    } finally {
      redis.resume();
    }
    // No reconnection, no periodic renewal for 20 minutes: only the retry can publish them now.
    await until(async () => (await assetKeyCount()) === hashed.length, 5_000);
    expect(lines.some((line) => line.msg.startsWith("shared assets: in Redis"))).toBe(true);
  });

  it("keeps fetched assets in a cache bounded in bytes", async () => {
    const [first, second] = hashed.filter((url) => url.endsWith(".js")).sort((x, y) => (files.get(y)?.size ?? 0) - (files.get(x)?.size ?? 0));
    const size = (url: string | undefined) => files.get(url ?? "")?.size ?? 0;
    const publisher = publishSharedAssets({ redis: await connect(), files, retentionMs: HOUR_MS, maxBytes: 50 * 1024 * 1024, logger: memoryLogger().logger });
    opened.push(publisher);
    await publisher.publish();
    // Room for the larger of the two alone: fetching the second evicts the first.
    const lookup = sharedAssetLookup(await connect(), size(first) + 1);
    expect((await lookup.lookup(first as string))?.length).toBe(size(first));
    expect((await lookup.lookup(second as string))?.length).toBe(size(second));
    await client.flushall();
    expect(await lookup.lookup(second as string)).toBeDefined();
    expect(await lookup.lookup(first as string)).toBeUndefined();
  });

  it("asks a second time when the first answer is late, so a short pause of Redis is no 404", async () => {
    const publisher = publishSharedAssets({ redis: await connect(), files, retentionMs: HOUR_MS, maxBytes: 50 * 1024 * 1024, logger: memoryLogger().logger });
    opened.push(publisher);
    await publisher.publish();
    const timeoutMs = 250;
    const lookup = sharedAssetLookup(await connect(timeoutMs));
    const asset = hashed[0] as string;
    // Redis pauses as the lookup goes out and wakes before a second try would time out.
    redis.pause();
    const resumed = setTimeout(() => redis.resume(), timeoutMs * 1.2);
    try {
      expect((await lookup.lookup(asset))?.length).toBe(files.get(asset)?.size);
    } finally {
      clearTimeout(resumed);
      redis.resume();
    }
  });

  it("answers unknown within twice the command timeout while Redis stalls, and at once while it is down", async () => {
    const connection = await connect(100);
    const lookup = sharedAssetLookup(connection);
    redis.pause();
    try {
      let started = performance.now();
      expect(await lookup.lookup("/assets/chunks/Stalled-ABCDEFGH.js")).toBeUndefined();
      expect(performance.now() - started).toBeLessThan(600);
      await redis.kill();
      await until(() => !connection.up, 5_000);
      started = performance.now();
      expect(await lookup.lookup("/assets/chunks/Down-ABCDEFGH.js")).toBeUndefined();
      expect(performance.now() - started).toBeLessThan(50);
    } finally {
      redis.resume();
      await redis.kill();
      await redis.start();
      client.disconnect();
      client = new Redis(redis.url);
    }
  });
});
