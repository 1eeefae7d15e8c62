import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LocalLimiter } from "#src/server/limits/local-limiter";
import { sharedLimiter } from "#src/server/limits/shared-limiter";
import { createRedisConnection, type RedisConnection } from "#src/server/redis/redis-connection";
import { parseProjectQuota } from "#src/server/tunnel";
import { type FakeIngest, startFakeIngest } from "../../../support/fake-ingest";
import { redisAvailable, startRedis, type TestRedis } from "../../../support/redis-server";
import { memoryLogger } from "../../../support/test-app";
import { startTunnel, type TunnelServer, until } from "../harness";
import { startSpoolingTunnel } from "../spool/spool-harness";
import { dsnOf, envelopeOf, forwardedAt, post, reportsAt, summed } from "./report-harness";

const INTERVAL_MS = 300;
let ingest: FakeIngest;
const servers: TunnelServer[] = [];

beforeAll(async () => {
  ingest = await startFakeIngest();
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  ingest.reset();
  ingest.requests.length = 0;
});
afterAll(() => ingest.close());

describe("SENTRY_TUNNEL_PROJECT_QUOTA's form", () => {
  it("reads N/minute and N/hour, off or empty as no quota, anything else as an error naming the form", () => {
    expect(parseProjectQuota("100/minute")).toEqual({ points: 100, durationSeconds: 60 });
    expect(parseProjectQuota("5000/hour")).toEqual({ points: 5000, durationSeconds: 3600 });
    expect(parseProjectQuota("")).toBeUndefined();
    expect(parseProjectQuota("off")).toBeUndefined();
    for (const bad of ["0/minute", "10/day", "-1/hour", "ten/minute", "10"]) expect(() => parseProjectQuota(bad)).toThrow(/N\/minute or N\/hour/);
  });
});

describe("the project quota in one process", () => {
  it("answers 429 past it with Retry-After and X-Sentry-Rate-Limits for the whole project, and reports what it refused", async () => {
    const dsn = dsnOf(ingest);
    const server = await startTunnel({ allowedDsns: [dsn], projectQuota: { points: 2, durationSeconds: 60 }, clientReportIntervalMs: INTERVAL_MS });
    servers.push(server);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await post(server.port, envelopeOf(dsn, ["event", "attachment"])));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429, 429]);
    const refused = answers[2];
    const retryAfter = Number(refused?.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(refused?.headers["x-sentry-rate-limits"]).toBe(`${retryAfter}::project:tunnel_quota`);
    expect(server.counts.rejected.quota).toBe(2);
    await until(() => reportsAt(ingest).length > 0, 3_000);
    expect(summed(reportsAt(ingest))).toEqual([
      { reason: "ratelimit_backoff", category: "attachment", quantity: 2 },
      { reason: "ratelimit_backoff", category: "error", quantity: 2 },
    ]);
  });

  it("never counts the tunnel's own client reports against it, nor another project's envelopes", async () => {
    const dsn = dsnOf(ingest, 1);
    const other = dsnOf(ingest, 2);
    const server = await startSpoolingTunnel(dsn, {}, { allowedDsns: [dsn, other], projectQuota: { points: 1, durationSeconds: 60 }, clientReportIntervalMs: INTERVAL_MS });
    servers.push(server);
    expect((await post(server.port, envelopeOf(dsn, ["event"]))).status).toBe(200);
    expect((await post(server.port, envelopeOf(dsn, ["event"]))).status).toBe(429);
    expect((await post(server.port, envelopeOf(other, ["event"]), { project: 2 })).status).toBe(200);
    // The report of the refusal reaches the ingest although project 1 is over its quota.
    await until(() => reportsAt(ingest).length > 0, 3_000);
    expect(summed(reportsAt(ingest))).toEqual([{ reason: "ratelimit_backoff", category: "error", quantity: 1 }]);
  });
});

describe.skipIf(!redisAvailable)("the project quota over three replicas on one Redis", () => {
  let redis: TestRedis;
  let connections: RedisConnection[];
  beforeAll(async () => {
    redis = await startRedis();
    connections = [1, 2, 3].map(() => createRedisConnection({ url: redis.url, timeoutMs: 1_000, logger: memoryLogger().logger }));
    await until(() => connections.every((connection) => connection.up), 5_000);
  });
  afterAll(async () => {
    await Promise.all(connections.map((connection) => connection.close()));
    await redis.stop();
  });

  it("holds the quota across replicas exactly, and each replica reports its own refusals: the sum is every refused item", async () => {
    const dsn = dsnOf(ingest);
    const points = 6;
    for (const connection of connections) {
      const quotaLimiter = sharedLimiter(connection, "tunnel_quota", points, 60, new LocalLimiter(points, 60_000, 100));
      servers.push(await startTunnel({ allowedDsns: [dsn], projectQuota: { points, durationSeconds: 60 }, quotaLimiter, clientReportIntervalMs: INTERVAL_MS }));
    }
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) {
      const replica = servers[i % servers.length] as TunnelServer;
      statuses.push((await post(replica.port, envelopeOf(dsn, ["event", "replay_event", "replay_recording"]))).status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(points);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15 - points);
    await until(() => summed(reportsAt(ingest)).length === 2, 3_000);
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS * 2));
    expect(forwardedAt(ingest)).toHaveLength(points);
    // Three replicas refused: up to three reports, one each, summing to every refused item.
    expect(reportsAt(ingest).length).toBeLessThanOrEqual(3);
    expect(summed(reportsAt(ingest))).toEqual([
      { reason: "ratelimit_backoff", category: "error", quantity: 15 - points },
      { reason: "ratelimit_backoff", category: "replay", quantity: 2 * (15 - points) },
    ]);
  });
});
