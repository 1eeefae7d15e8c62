import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisPageStore } from "#src/server/page-cache/redis-page-store";
import { retriedDrops } from "#src/server/page-cache/retried-drops";
import { createRedisConnection, type RedisConnection } from "#src/server/redis/redis-connection";
import { until } from "../../support/raw-http";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { memoryLogger } from "../../support/test-app";

const RETRY_MS = 50;
const GIVE_UP_MS = 400;

describe.skipIf(!redisAvailable)("a drop retried against a Redis that is gone", () => {
  let redis: TestRedis;
  let connection: RedisConnection;
  beforeAll(async () => {
    redis = await startRedis();
    connection = createRedisConnection({ url: redis.url, timeoutMs: 100, logger: memoryLogger().logger });
    await until(() => connection.up, 5_000);
    await redis.kill();
    await until(() => !connection.up, 5_000);
  });
  afterAll(async () => {
    await connection.close();
    await redis.stop();
  });

  it("is tried for a bounded time, then given up once, counted, and never tried again", async () => {
    const store = redisPageStore(connection, { maxBytes: 1024 * 1024 });
    let tries = 0;
    const counted = {
      dropTag: (tag: string) => {
        tries++;
        return store.dropTag(tag);
      },
    };
    const givenUp: string[] = [];
    const errors: unknown[] = [];
    const drops = retriedDrops(counted, { retryMs: RETRY_MS, giveUpMs: GIVE_UP_MS, onError: (error) => errors.push(error), onGiveUp: (tag) => givenUp.push(tag) });

    await drops.drop("articles");
    await drops.drop("path:/a");
    expect([...drops.pending.keys()]).toEqual(["articles", "path:/a"]);
    await until(() => givenUp.length === 2, 3_000);
    expect(givenUp).toEqual(["articles", "path:/a"]);
    expect(drops.pending.size).toBe(0);
    // Tried every RETRY_MS until it was given up (one error reported for the outage), then left alone.
    expect(tries).toBeGreaterThan(3);
    expect(errors).toHaveLength(1);
    const triedThen = tries;
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS * 5));
    expect(tries).toBe(triedThen);
  });
});
