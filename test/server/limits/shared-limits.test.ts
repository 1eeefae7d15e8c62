import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeIngest, startFakeIngest } from "../../support/fake-ingest";
import { until } from "../../support/raw-http";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { envelope } from "../tunnel/harness";
import { type Replica, roundRobin, startReplica } from "./replicas";

const TUNNEL_LIMIT = 4;

describe.skipIf(!redisAvailable)("three replicas sharing one Redis", () => {
  let redis: TestRedis;
  let ingest: FakeIngest;
  let dsn: string;
  let replicas: Replica[];
  beforeAll(async () => {
    [redis, ingest] = await Promise.all([startRedis(), startFakeIngest()]);
    dsn = `http://abc123@127.0.0.1:${ingest.port}/42`;
    replicas = await Promise.all([1, 2, 3].map(() => startReplica(redis.url, dsn, TUNNEL_LIMIT)));
    await until(() => replicas.every((replica) => replica.app.deps.redis?.up === true), 5_000);
  });
  afterEach(async () => {
    await replicas[0]?.app.deps.redis?.client.flushall();
    ingest.reset();
  });
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    await Promise.all([redis.stop(), ingest.close()]);
  });

  it("limit one client's envelopes as one client: the tunnel's limit is not multiplied by three", async () => {
    const body = envelope(dsn);
    const answers = await roundRobin(replicas, 3 * TUNNEL_LIMIT, (url) => fetch(`${url}/monitoring?p=42`, { method: "POST", body: new Uint8Array(body) }));
    expect(answers.map((answer) => answer.status)).toEqual([...Array(TUNNEL_LIMIT).fill(200), ...Array(2 * TUNNEL_LIMIT).fill(429)]);
    expect(Number(answers.at(-1)?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(ingest.requests).toHaveLength(TUNNEL_LIMIT);
  });

  it("limit a product's rateLimit() middleware across the three, answering through the error component", async () => {
    const answers = await roundRobin(replicas, 5, (url) => fetch(`${url}/diagnostics/limited`));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429, 429]);
    expect(await (answers[2] as Response).text()).toContain('id="limited-ok"');
    const refused = answers[3] as Response;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const html = await refused.text();
    expect(html).toContain('data-status="429"');
    expect(html).not.toContain('id="limited-ok"');
    expect(replicas.flatMap((replica) => replica.app.logs).filter((line) => line.level >= 50)).toEqual([]);
  });
});
