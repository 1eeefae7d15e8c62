import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMetrics } from "#src/server/metrics";
import { startFakeIngest, type FakeIngest } from "../../support/fake-ingest";
import { until } from "../../support/raw-http";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { type Replica, startReplica } from "./replicas";

const TIMEOUT_MS = 100;

interface Timed {
  status: number;
  ms: number;
}

async function timed(url: string): Promise<Timed> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

describe.skipIf(!redisAvailable)("Redis killed under load, then back", () => {
  let redis: TestRedis;
  let ingest: FakeIngest;
  let a: Replica;
  let b: Replica;
  beforeAll(async () => {
    [redis, ingest] = await Promise.all([startRedis(), startFakeIngest()]);
    const dsn = `http://abc123@127.0.0.1:${ingest.port}/42`;
    [a, b] = await Promise.all([startReplica(redis.url, dsn, 60), startReplica(redis.url, dsn, 60)]);
    await until(() => a.app.deps.redis?.up === true && b.app.deps.redis?.up === true, 5_000);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await Promise.all([redis.stop(), ingest.close()]);
  });

  it("keeps pages answering fast, counts limits per instance with one warning, and shares them again once Redis is back", async () => {
    const metrics = createMetrics();
    metrics.watchRedis(a.app.deps.redis as NonNullable<typeof a.app.deps.redis>);
    const gauge = async () => (await metrics.registry.getSingleMetricAsString("outpost_redis_up")).trim().split("\n").at(-1);
    expect(await gauge()).toBe("outpost_redis_up 1");

    // Each path rendered once first: a first render's compile time is not what is measured.
    for (const url of [`${a.app.url}/`, `${b.app.url}/`, `${b.app.url}/long`, `${a.app.url}/diagnostics/limited`]) await timed(url);
    // Load on both replicas: plain pages and a limited one, while Redis dies half-way.
    const answers: Timed[] = [];
    // The replicas run in this process: a stall of its event loop (a loaded test machine) delays every request alike.
    const stalls = monitorEventLoopDelay({ resolution: 10 });
    stalls.enable();
    let loading = true;
    const worker = async (replica: Replica, path: string) => {
      while (loading) answers.push(await timed(`${replica.app.url}${path}`));
    };
    const load = Promise.all([worker(a, "/"), worker(b, "/"), worker(a, "/diagnostics/limited"), worker(b, "/long")]);
    await until(() => answers.length >= 40, 10_000);
    await redis.kill();
    await until(() => a.app.deps.redis?.up === false && b.app.deps.redis?.up === false);
    const afterKill = answers.length;
    await until(() => answers.length >= afterKill + 80, 10_000);
    loading = false;
    await load;
    stalls.disable();
    const longestStallMs = stalls.max / 1e6;

    expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
    // On the server's own clock (the request log), no request waited on Redis past its timeout (beyond
    // the longest stall of the event loop, which is the machine's, not Redis'); on the client's, none hung.
    const served = [a, b].flatMap((replica) => replica.app.logs.filter((line) => line.msg === "request").map((line) => Number(line.durationMs)));
    expect(served.length).toBeGreaterThanOrEqual(answers.length);
    expect(Math.max(...served)).toBeLessThan(TIMEOUT_MS + 100 + longestStallMs);
    expect(Math.max(...answers.map((answer) => answer.ms))).toBeLessThan(1_000);
    expect(await gauge()).toBe("outpost_redis_up 0");
    for (const replica of [a, b]) {
      expect(replica.redisLogs.filter((line) => line.level === 40 && line.msg.startsWith("redis: unavailable ("))).toHaveLength(1);
      expect(replica.app.logs.filter((line) => line.level >= 50)).toEqual([]);
    }
    // Per instance now: b's own allowance is untouched by a's requests.
    expect((await timed(`${b.app.url}/diagnostics/limited`)).status).toBe(200);

    await redis.start();
    await until(async () => (await gauge()) === "outpost_redis_up 1", 5_000);
    await until(() => b.app.deps.redis?.up === true, 5_000);
    // Shared again: three on one replica use up the allowance on the other.
    for (let i = 0; i < 3; i++) expect((await timed(`${a.app.url}/diagnostics/limited`)).status).toBe(200);
    expect((await timed(`${b.app.url}/diagnostics/limited`)).status).toBe(429);
  });
});
