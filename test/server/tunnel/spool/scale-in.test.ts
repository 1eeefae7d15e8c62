import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { type FakeIngest, startFakeIngest } from "../../../support/fake-ingest";
import { type ServerProcess, startServerProcess } from "../../../support/server-process";
import { send, until } from "../harness";
import { datedEnvelope, spoolDir, withoutSentAt } from "./spool-harness";

// A pod removed by a scale-in: SIGTERM, and its spool should reach the ingest before the process exits.

const COUNT = 30;
const TAG = "scale-in-";
let ingest: FakeIngest;
let dsn: string;
let dir: ReturnType<typeof spoolDir>;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  ingest = await startFakeIngest();
  dsn = `http://publickey@127.0.0.1:${ingest.port}/42`;
});
beforeEach(async () => {
  ingest.reset();
  await ingest.stop();
  dir = spoolDir();
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop("SIGKILL");
  if (ingest.port) await ingest.start().catch(() => {});
  dir.remove();
});
afterAll(async () => {
  await ingest?.close();
});

async function start(env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await startServerProcess({ SENTRY_DSN: dsn, SENTRY_TUNNEL_SPOOL_DIR: dir.dir, ...env });
  servers.push(server);
  return server;
}

/** The spool's depth as Prometheus scrapes it, summed over upstreams. */
async function spoolDepth(server: ServerProcess): Promise<number> {
  const text = await (await fetch(`${server.metricsUrl}/metrics`)).text();
  const lines = text.split("\n").filter((line) => line.startsWith("outpost_tunnel_spool_envelopes{"));
  return lines.reduce((sum, line) => sum + Number(line.split(" ").pop()), 0);
}

/** With the ingest down: COUNT envelopes acknowledged (200) and on disk, as the depth metric says. */
async function spoolWhileDown(server: ServerProcess): Promise<void> {
  const port = Number(new URL(server.url).port);
  for (let i = 0; i < COUNT; i++) {
    const answer = await send(port, "/monitoring?p=42", { body: datedEnvelope(dsn, `${TAG}${i}`) });
    expect(answer.status).toBe(200);
  }
  await until(async () => (await spoolDepth(server)) === COUNT, 5_000);
}

const delivered = () => new Set(ingest.requests.filter((r) => r.complete && r.body.includes(TAG)).map((r) => withoutSentAt(r.body))).size;
const logged = (server: ServerProcess, msg: string) => server.waitForLogs((lines) => lines.some((line) => line.msg === msg));
const lineOf = (lines: Array<Record<string, unknown>>, msg: string) => lines.find((line) => line.msg === msg);

it("delivers every spooled envelope on SIGTERM once the ingest is back, then exits 0", async () => {
  const server = await start();
  await spoolWhileDown(server);
  await ingest.start();
  const exited = await server.stop("SIGTERM");

  expect(exited).toBe(0);
  expect(delivered()).toBe(COUNT);
  const lines = await logged(server, "shutdown complete");
  expect(lineOf(lines, "sentry tunnel spool: delivering what it holds before exit")).toMatchObject({ envelopes: COUNT });
  expect(lineOf(lines, "sentry tunnel spool: envelopes stay on disk until the next start")).toBeUndefined();
  expect(server.output.join("\n")).not.toContain(TAG);
});

it("exits before the deadline when the ingest is still down, keeps the envelopes on disk, and a restart delivers them", async () => {
  const deadlineMs = 8_000;
  const server = await start({ SHUTDOWN_TIMEOUT_MS: String(deadlineMs) });
  await spoolWhileDown(server);
  const signalled = Date.now();
  const exited = await server.stop("SIGTERM");

  expect(exited).toBe(0);
  // The circuit is open and its backoff may run past the deadline: the drain probes at once and stops when the probe fails.
  expect(Date.now() - signalled).toBeLessThan(deadlineMs);
  const lines = await logged(server, "shutdown complete");
  expect(lineOf(lines, "sentry tunnel spool: envelopes stay on disk until the next start")).toMatchObject({ envelopes: COUNT });
  expect(server.output.join("\n")).not.toContain(TAG);

  await ingest.start();
  const restarted = await start();
  await ingest.waitFor(() => delivered() === COUNT, 15_000);
  expect(await restarted.stop("SIGTERM")).toBe(0);
});

it("does not let an ingest that never answers hold the exit past the deadline and the replay's stop", async () => {
  const deadlineMs = 1_500;
  // Only the drain deadline can end the probe: the ingest's own timeout is far longer.
  const server = await start({ SHUTDOWN_TIMEOUT_MS: String(deadlineMs), SENTRY_TUNNEL_HEADERS_TIMEOUT_MS: "120000" });
  await spoolWhileDown(server);
  ingest.response.hang = true;
  await ingest.start();
  const signalled = Date.now();
  const exited = await server.stop("SIGTERM");

  expect(exited).toBe(0);
  // The deadline, then the replay's 2 s stop grace for deliveries under way, with room for a loaded machine.
  expect(Date.now() - signalled).toBeLessThan(deadlineMs + 2_000 + 3_000);
  expect(ingest.requests.length).toBeGreaterThan(0);
  const lines = await logged(server, "shutdown complete");
  expect(lineOf(lines, "sentry tunnel spool: envelopes stay on disk until the next start")).toMatchObject({ envelopes: COUNT });
});
