import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisConnection, type RedisConnection } from "#src/server/redis/redis-connection";
import { sessionScripts } from "#src/server/sessions/redis-scripts";
import { until } from "../../support/raw-http";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { memoryLogger } from "../../support/test-app";

const PREFIXES = { value: "v:", flash: "f:", taken: "v:outpost.flash-taken:" };

// The read script answers each session as one JSON text (docs/decisions/0107-session-reads-batched-per-turn.md).
describe.skipIf(!redisAvailable)("the Redis session read script", () => {
  let redis: TestRedis;
  let connection: RedisConnection;
  let read: (keys: readonly string[]) => Promise<unknown[]>;
  beforeAll(async () => {
    redis = await startRedis();
    connection = createRedisConnection({ url: redis.url, timeoutMs: 5_000, logger: memoryLogger().logger, probeIntervalMs: 60_000 });
    const scripts = sessionScripts(connection.client);
    read = (keys) => scripts.read(keys, 64 * 1024, PREFIXES, 10_000);
    await until(() => connection.up, 5_000);
  });
  afterAll(async () => {
    await connection.close();
    await redis.stop();
  });

  it("answers a session as one JSON text of its values and its flashes, names escaped, the flashes taken", async () => {
    const key = "outpost:session:one-text";
    const name = 'a "quoted"\\name/é\n';
    await connection.client.hset(key, "_", "1", "v:visits", "3", `v:${name}`, '{"deep":[1,null]}', "v:__proto__", '"just a key"', "f:message", '"Saved"');
    const [reply] = (await read([key, "outpost:session:none"])) as [[number, string, string]];
    expect(reply[0]).toBe(1);
    expect(typeof reply[1]).toBe("string");
    const [values, flashed] = JSON.parse(reply[1]) as [Record<string, unknown>, Record<string, unknown>];
    expect(Object.keys(values).sort()).toEqual(["__proto__", "visits", name].sort());
    expect(values.visits).toBe(3);
    expect(values[name]).toEqual({ deep: [1, null] });
    expect(Object.getOwnPropertyDescriptor(values, "__proto__")?.value).toBe("just a key");
    expect(flashed).toEqual({ message: "Saved" });
    expect(await connection.client.hexists(key, "f:message")).toBe(0);
    // No flashes: the values alone.
    const [again] = (await read([key])) as [[number, string, string]];
    expect(JSON.parse(again[1])).toHaveLength(1);
  });

  it("never pastes in a stored value that is not exactly one JSON value: the session is dropped as unreadable", async () => {
    for (const text of ['1,"admin":true', '"a"}, {"admin":true', "{not json", ""]) {
      const key = "outpost:session:spoilt";
      await connection.client.hset(key, "_", "1", "v:visits", text);
      expect(await read([key])).toEqual([[-4]]);
      expect(await connection.client.exists(key)).toBe(0);
    }
  });

  it("drops a session with a field of no known kind as unreadable", async () => {
    const key = "outpost:session:strange-field";
    await connection.client.hset(key, "_", "1", "x:other", "1");
    expect(await read([key])).toEqual([[-4]]);
    expect(await connection.client.exists(key)).toBe(0);
  });
});
