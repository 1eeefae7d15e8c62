import { envelope } from "../server/tunnel/harness";
import { type FakeIngest, startFakeIngest } from "./fake-ingest";
import { leaveEarly } from "./raw-http";
import { redisAvailable, startRedis, type TestRedis } from "./redis-server";
import { type ServerProcess, startServerProcess } from "./server-process";

/** The fixture app's production build with every source of series its dashboards and alerts read: an ingest, a Redis when one can start. */
export interface MonitoredOutpost {
  server: ServerProcess;
  ingest: FakeIngest;
  redis: TestRedis | undefined;
  dsn: string;
  scrape(): Promise<string>;
  stop(): Promise<void>;
}

// A small spool, so that an outage of a few envelopes fills it and drops the oldest (max_bytes).
const SPOOL_BYTES = "4096";

export async function startMonitoredOutpost(env: Record<string, string> = {}): Promise<MonitoredOutpost> {
  const ingest = await startFakeIngest();
  const redis = redisAvailable ? await startRedis() : undefined;
  const dsn = `http://publickey@127.0.0.1:${ingest.port}/42`;
  const server = await startServerProcess({
    SENTRY_DSN: dsn,
    ENABLE_DIAGNOSTIC_ROUTES: "true",
    SENTRY_TUNNEL_SPOOL_MAX_BYTES: SPOOL_BYTES,
    SENTRY_TUNNEL_SPOOL_MAX_ENVELOPE_BYTES: SPOOL_BYTES,
    // A mix sent every second would meet the per-IP limit; its 429s are not what the mix is about.
    SENTRY_TUNNEL_RATE_LIMIT: "0",
    ...(redis ? { REDIS_URL: redis.url } : {}),
    ...env,
  });
  return {
    server,
    ingest,
    redis,
    dsn,
    scrape: async () => (await fetch(`${server.metricsUrl}/metrics`)).text(),
    async stop() {
      await server.stop();
      await ingest.close();
      await redis?.stop();
    },
  };
}

const portOf = (outpost: MonitoredOutpost) => Number(new URL(outpost.server.url).port);
const postEnvelope = (outpost: MonitoredOutpost, dsn: string, message = "hi") =>
  fetch(`${outpost.server.url}/monitoring?p=42`, {
    method: "POST",
    body: new Uint8Array(envelope(dsn, [`{"type":"event"}\n{"message":"${message}"}`])),
  }).then((response) => response.status);

/**
 * One round of a representative mix: pages and data, a 404, a 500, a cross-site form post, a
 * visitor leaving a streamed page, envelopes forwarded and one refused (a DSN not allowed).
 */
export async function sendTraffic(outpost: MonitoredOutpost): Promise<void> {
  const { url } = outpost.server;
  const statuses: number[] = [];
  for (const path of ["/", "/long", "/does-not-exist", "/diagnostics/server-error", "/robots.txt"]) {
    const response = await fetch(`${url}${path}`);
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  const crossSite = await fetch(`${url}/`, { method: "POST", headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" } });
  await crossSite.arrayBuffer();
  await leaveEarly(portOf(outpost), "/diagnostics/deferred");
  statuses.push(crossSite.status, await postEnvelope(outpost, outpost.dsn), await postEnvelope(outpost, "http://otherkey@127.0.0.1:9/7"));
  const expected = [200, 200, 404, 500, 200, 403, 200, 403];
  if (statuses.join() !== expected.join()) throw new Error(`traffic mix answered ${statuses.join()}, expected ${expected.join()}`);
}

/** Polls /metrics (50 ms apart) until `predicate` holds for its text. */
export async function waitForMetrics(outpost: MonitoredOutpost, predicate: (text: string) => boolean, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await outpost.scrape();
    if (predicate(text)) return text;
    if (Date.now() > deadline) throw new Error(`metrics never matched:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Takes the ingest down and posts envelopes until its circuit is open and the spool, full, has
 * dropped its oldest; the ingest stays down until `ingest.start()`.
 */
export async function holdIngestDown(outpost: MonitoredOutpost): Promise<string> {
  await outpost.ingest.stop();
  const padding = "x".repeat(900);
  for (let i = 0; i < 8; i++) {
    const status = await postEnvelope(outpost, outpost.dsn, `outage-${i}-${padding}`);
    if (status !== 200) throw new Error(`an envelope during the outage answered ${status}, expected 200 (spooled)`);
  }
  return waitForMetrics(outpost, (text) => /outpost_tunnel_circuit_state\{[^}]*state="open"\} 1/.test(text) && /outpost_tunnel_spool_dropped_total\{reason="max_bytes",upstream="[^"]+"\}/.test(text));
}
