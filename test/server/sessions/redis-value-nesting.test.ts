import type { Context } from "koa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisConnection, type RedisConnection } from "#src/server/redis/redis-connection";
import { sessionScripts } from "#src/server/sessions/redis-scripts";
import { redisStore, SessionValueTooDeepError } from "#src/server/sessions/redis-store";
import type { SessionChanges } from "#src/server/sessions/session-store";
import { MAX_VALUE_NESTING } from "#src/server/sessions/value-nesting";
import { until } from "../../support/raw-http";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { memoryLogger } from "../../support/test-app";

const nested = (depth: number) => {
  let value: unknown = "[{";
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};
const changes: SessionChanges = { cleared: false, renew: false, set: new Set(), added: new Map(), flashed: new Set(), restore: {} };

// Redis' read script checks each value with cjson, which reads no deeper than 1,000 levels: a deeper value, once written, dropped its whole session at the next read.
describe.skipIf(!redisAvailable)("a deeply nested value in a Redis session", () => {
  let redis: TestRedis;
  let connection: RedisConnection;
  beforeAll(async () => {
    redis = await startRedis();
    connection = createRedisConnection({ url: redis.url, timeoutMs: 5_000, logger: memoryLogger().logger, probeIntervalMs: 60_000 });
    await until(() => connection.up, 5_000);
  });
  afterAll(async () => {
    await connection.close();
    await redis.stop();
  });

  it("is kept up to the nesting Redis reads, and refused at its write beyond it, never written to lose the session later", async () => {
    const store = redisStore(connection);
    let cookie = "";
    const ctx = { cookies: { set: (_name: string, value: string) => (cookie = value), get: () => undefined } } as unknown as Context;
    await store.write(ctx, { values: Object.assign(Object.create(null), { deep: nested(MAX_VALUE_NESTING), other: 1 }) }, changes);
    const key = `outpost:session:${cookie}`;
    expect(cookie).not.toBe("");
    const [kept] = await sessionScripts(connection.client).read([key], 64 * 1024, { value: "v:", flash: "f:", taken: "v:outpost.flash-taken:" }, 10_000);
    expect(kept?.[0]).toBe(1);
    expect(JSON.parse((kept as [1, string, string])[1])[0].other).toBe(1);

    const before = await connection.client.dbsize();
    const refused = store.write(ctx, { values: Object.assign(Object.create(null), { deep: nested(MAX_VALUE_NESTING + 1) }) }, changes);
    await expect(refused).rejects.toBeInstanceOf(SessionValueTooDeepError);
    expect(await connection.client.dbsize()).toBe(before);
  });
});
