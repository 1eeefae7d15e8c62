import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMetrics } from "#src/server/metrics";
import { openStream, stalledStream, type StreamClient } from "../../support/event-stream-client";
import { until } from "../../support/raw-http";
import { redisUp } from "../../support/redis-app";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { startTestApp, type TestApp } from "../../support/test-app";

const STREAM = "/diagnostics/events/stream";

/** The diagnostics form's POST: publishes `{ message }` to channel `diagnostics` on every replica, then 303. */
async function publishOn(app: TestApp, message: string): Promise<number> {
  const response = await fetch(`${app.url}/diagnostics/events`, {
    method: "POST",
    body: new URLSearchParams({ message }),
    redirect: "manual",
  });
  await response.body?.cancel();
  return response.status;
}

const messages = (client: StreamClient) => client.messages().map((data) => (data as { message: string }).message);
const ids = (client: StreamClient) => client.events.filter((event) => event.type === "message").map((event) => event.lastEventId);

describe("event streams within one process (no REDIS_URL)", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", EVENT_STREAM_HEARTBEAT_S: "0.1" });
  });
  afterAll(async () => app?.close());

  it("answers text/event-stream with its headers and a retry hint, and fans out to every stream of the process", async () => {
    const [first, second] = await Promise.all([openStream(`${app.url}${STREAM}`), openStream(`${app.url}${STREAM}`)]);
    expect(first.status).toBe(200);
    expect(first.headers["content-type"]).toMatch(/^text\/event-stream/);
    expect(first.headers["cache-control"]).toBe("no-cache");
    expect(first.headers["x-accel-buffering"]).toBe("no");
    await first.waitFor((client) => client.retries.length > 0);
    expect(await publishOn(app, "local")).toBe(303);
    for (const client of [first, second]) await client.waitFor((c) => messages(c).includes("local"));
    expect(first.events.at(-1)?.data).toBe(JSON.stringify({ message: "local" }));
    expect(ids(first)).toEqual(ids(second));
    first.close();
    second.close();
  });

  it("runs the stream route's middleware, which can read the session and refuse a signed-out visitor", async () => {
    const refused = await openStream(`${app.url}/test/members-stream`);
    expect(refused.status).toBe(401);
    const signIn = await fetch(`${app.url}/diagnostics/session`, { method: "POST", body: new URLSearchParams({ name: "Ada" }), redirect: "manual" });
    await signIn.body?.cancel();
    const cookie = signIn.headers.getSetCookie().map((value) => value.split(";")[0]).join("; ");
    const member = await openStream(`${app.url}/test/members-stream`, { Cookie: cookie });
    expect(member.status).toBe(200);
    expect(member.headers["content-type"]).toMatch(/^text\/event-stream/);
    await app.deps.services.events.publish("members", { hello: "Ada" });
    await member.waitFor((c) => c.messages().length > 0);
    expect(member.messages()).toEqual([{ hello: "Ada" }]);
    member.close();
  });

  it("sends a comment heartbeat every EVENT_STREAM_HEARTBEAT_S", async () => {
    const client = await openStream(`${app.url}${STREAM}`);
    await client.waitFor((c) => c.heartbeats >= 3);
    client.close();
  });

  it("refuses a stream past EVENT_STREAM_MAX with 503 and Retry-After", async () => {
    const limited = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", EVENT_STREAM_MAX: "1" });
    try {
      const open = await openStream(`${limited.url}${STREAM}`);
      const refused = await openStream(`${limited.url}${STREAM}`);
      expect(refused.status).toBe(503);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      open.close();
      await until(() => limited.deps.services.events.openStreams === 0);
      const again = await openStream(`${limited.url}${STREAM}`);
      expect(again.status).toBe(200);
      again.close();
    } finally {
      await limited.close();
    }
  });

  it("closes the connection of a client that stops reading once its queue passes the bound, and counts it as slow", async () => {
    const metrics = createMetrics();
    const slowApp = await startTestApp(
      { ENABLE_DIAGNOSTIC_ROUTES: "true", EVENT_STREAM_BUFFER_MAX_BYTES: "65536" },
      { observeEvents: metrics.eventsObserver },
    );
    try {
      const { events } = slowApp.deps.services;
      const port = Number(new URL(slowApp.url).port);
      const stalled = stalledStream(port, STREAM);
      await until(() => events.openStreams === 1);
      const big = "x".repeat(32 * 1024);
      // Kernel buffers take a few hundred KiB first; then the stream's own queue passes 64 KiB.
      for (let sent = 0; sent < 400 && events.openStreams > 0; sent += 1) {
        await events.publish("diagnostics", { message: big });
        await new Promise((resolve) => setImmediate(resolve));
      }
      await until(() => events.openStreams === 0);
      // The server closed its side: read now, the client gets what the kernel held, then the end.
      stalled.socket.resume();
      await stalled.closed;
      const closed = await metrics.registry.getSingleMetricAsString("outpost_event_stream_closed_total");
      expect(closed).toContain('outpost_event_stream_closed_total{reason="slow"} 1');
      stalled.socket.destroy();
    } finally {
      await slowApp.close();
    }
  });
});

describe.skipIf(!redisAvailable)("event streams across three replicas on one Redis", () => {
  let redis: TestRedis;
  let replicas: TestApp[];
  const env = { ENABLE_DIAGNOSTIC_ROUTES: "true", EVENT_STREAM_RETAIN: "3", EVENT_STREAM_MAX_PER_CLIENT: "2", REDIS_TIMEOUT_MS: "200" };
  beforeAll(async () => {
    redis = await startRedis();
    replicas = await Promise.all([0, 1, 2].map(() => startTestApp({ ...env, REDIS_URL: redis.url })));
    await Promise.all(replicas.map(redisUp));
  });
  afterAll(async () => {
    await Promise.all((replicas ?? []).map((app) => app.close()));
    await redis?.stop();
  });
  const replica = (index: number) => () => replicas[index] as TestApp;
  const [a, b, c] = [replica(0), replica(1), replica(2)];

  /** A stream whose fan-out subscription is in place: an event published now reaches it. */
  async function listening(app: TestApp, headers: Record<string, string> = {}) {
    const client = await openStream(`${app.url}${STREAM}`, headers);
    expect(client.status).toBe(200);
    await client.waitFor((c) => c.retries.length > 0);
    return client;
  }

  it("an event published on one replica reaches the streams of every replica, with the same id", async () => {
    const clients = await Promise.all([a(), b(), c()].map((app) => listening(app)));
    // The fan-out connections subscribe in the background: publish until the first arrives everywhere.
    await until(async () => {
      await publishOn(b(), "ping");
      return clients.every((client) => messages(client).includes("ping"));
    }, 5_000);
    expect(await publishOn(b(), "fan-out")).toBe(303);
    for (const client of clients) await client.waitFor((c) => messages(c).includes("fan-out"));
    const [first, ...others] = clients.map((client) => ids(client).at(-1));
    for (const id of others) expect(id).toBe(first);
    for (const client of clients) client.close();
  });

  it("a client reconnecting to another replica with Last-Event-ID gets what it missed, once, in order, then live events", async () => {
    const before = await listening(a());
    await publishOn(b(), "seen");
    await before.waitFor((c) => messages(c).includes("seen"));
    const lastSeen = ids(before).at(-1) as string;
    before.close();
    await publishOn(b(), "missed one");
    await publishOn(a(), "missed two");
    const after = await listening(c(), { "Last-Event-ID": lastSeen });
    await after.waitFor((c) => messages(c).length >= 2);
    await publishOn(b(), "live");
    await after.waitFor((c) => messages(c).includes("live"));
    expect(messages(after)).toEqual(["missed one", "missed two", "live"]);
    expect(after.events.some((event) => event.type === "missed")).toBe(false);
    after.close();
  });

  it("an id older than what is kept gets the kept events and a `missed` event saying so", async () => {
    const watcher = await listening(a());
    await publishOn(a(), "old");
    await watcher.waitFor((c) => messages(c).includes("old"));
    const oldId = ids(watcher).at(-1) as string;
    watcher.close();
    for (const message of ["k1", "k2", "k3", "k4"]) await publishOn(b(), message);
    const late = await listening(c(), { "Last-Event-ID": oldId });
    await late.waitFor((c) => messages(c).length >= 3);
    expect(late.events[0]?.type).toBe("missed");
    expect(JSON.parse(late.events[0]?.data ?? "{}")).toEqual({ lastEventId: oldId, kept: 3 });
    expect(messages(late)).toEqual(["k2", "k3", "k4"]);
    late.close();
  });

  it("refuses a client's third stream on a replica with 429 and Retry-After (EVENT_STREAM_MAX_PER_CLIENT=2)", async () => {
    const open = [await listening(a()), await listening(a())];
    const refused = await openStream(`${a().url}${STREAM}`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // Per replica: another one takes it.
    const elsewhere = await listening(b());
    for (const client of [...open, elsewhere]) client.close();
    await until(() => a().deps.services.events.openStreams === 0);
    (await listening(a())).close();
  });

  it("publishing while Redis is frozen answers within REDIS_TIMEOUT_MS and reaches this replica's streams", async () => {
    const local = await listening(a());
    redis.pause();
    try {
      const started = performance.now();
      expect(await publishOn(a(), "while frozen")).toBe(303);
      // Bounded by the command timeout (200 ms), not by Redis: generous for a busy machine.
      expect(performance.now() - started).toBeLessThan(5_000);
      await local.waitFor((c) => messages(c).includes("while frozen"));
    } finally {
      redis.resume();
    }
    local.close();
    await Promise.all(replicas.map(redisUp));
  });
});
