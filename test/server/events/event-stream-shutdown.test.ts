import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStream, stalledStream } from "../../support/event-stream-client";
import { until } from "../../support/raw-http";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { type ServerProcess, startServerProcess } from "../../support/server-process";

const STREAM = "/diagnostics/events/stream";

async function publishOn(server: ServerProcess, message: string): Promise<void> {
  const response = await fetch(`${server.url}/diagnostics/events`, { method: "POST", body: new URLSearchParams({ message }), redirect: "manual" });
  await response.body?.cancel();
  expect(response.status).toBe(303);
}

const metric = async (server: ServerProcess, name: string) => {
  const text = await (await fetch(`${server.metricsUrl}/metrics`)).text();
  return text.split("\n").find((line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`));
};

// Built servers as production runs them, two replicas on one Redis: SIGTERM must not wait on open streams.
describe.skipIf(!redisAvailable)("event streams on SIGTERM", () => {
  let redis: TestRedis;
  let leaving: ServerProcess;
  let staying: ServerProcess;
  beforeAll(async () => {
    redis = await startRedis();
    const env = { ENABLE_DIAGNOSTIC_ROUTES: "true", REDIS_URL: redis.url, SHUTDOWN_TIMEOUT_MS: "20000", LOG_LEVEL: "info" };
    [leaving, staying] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  });
  afterAll(async () => {
    await Promise.all([leaving?.stop(), staying?.stop()]);
    await redis?.stop();
  });

  it("ends open streams at once with a retry hint, exits without waiting for them, and the client resumes on another replica", async () => {
    const reader = await openStream(`${leaving.url}${STREAM}`);
    await reader.waitFor((c) => c.retries.length > 0);
    // A client that never reads holds its connection: the process must not wait for it either.
    const stalled = stalledStream(Number(new URL(leaving.url).port), STREAM);
    await until(async () => (await metric(leaving, "outpost_event_streams")) === "outpost_event_streams 2", 5_000);
    await until(async () => {
      await publishOn(staying, "before");
      return reader.messages().length > 0;
    }, 5_000);

    const signalled = performance.now();
    leaving.child.kill("SIGTERM");
    const { clean, at } = await reader.ended;
    // As a browser does: the last id it received. The loop above may have published "before" more than once.
    const lastSeen = reader.events.filter((event) => event.type === "message").at(-1)?.lastEventId as string;
    expect(clean).toBe(true);
    // The stream ends at once; a second is the promise, with room for a busy machine within it.
    expect(at - signalled).toBeLessThan(1_000);
    expect(reader.retries.length).toBeGreaterThanOrEqual(2);
    expect(reader.retries.at(-1)).toBeGreaterThanOrEqual(1_000);
    const code = await leaving.exited;
    expect(code).toBe(0);
    // Far from SHUTDOWN_TIMEOUT_MS (20 s): the drain did not wait for the streams, the stalled one included.
    expect(performance.now() - signalled).toBeLessThan(10_000);
    const logs = await leaving.waitForLogs((lines) => lines.some((line) => line.msg === "shutdown complete"));
    expect(logs.find((line) => line.msg === "shutdown complete")?.timedOut).toBe(false);
    stalled.socket.destroy();

    // Published while the client was away; it comes back elsewhere with its Last-Event-ID.
    await publishOn(staying, "while away");
    const resumed = await openStream(`${staying.url}${STREAM}`, { "Last-Event-ID": lastSeen });
    await resumed.waitFor((c) => c.messages().length > 0);
    expect(resumed.messages()).toEqual([{ message: "while away" }]);
    resumed.close();
  });
});
