import { afterAll, beforeAll, expect, it } from "vitest";
import { type FakeIngest, startFakeIngest } from "../../../support/fake-ingest";
import { runFailingStart, type ServerProcess, startServerProcess } from "../../../support/server-process";
import { send } from "../harness";
import { datedEnvelope, spoolDir, withoutSentAt } from "./spool-harness";

let ingest: FakeIngest;
let dsn: string;
const servers: ServerProcess[] = [];
const dir = spoolDir();

beforeAll(async () => {
  ingest = await startFakeIngest();
  dsn = `http://publickey@127.0.0.1:${ingest.port}/42`;
});
afterAll(async () => {
  for (const server of servers) await server.stop("SIGKILL");
  await ingest?.close();
  dir.remove();
});

async function start(): Promise<ServerProcess> {
  const server = await startServerProcess({ SENTRY_DSN: dsn, SENTRY_TUNNEL_SPOOL_DIR: dir.dir });
  servers.push(server);
  return server;
}
const post = (server: ServerProcess, body: Buffer) => send(Number(new URL(server.url).port), "/monitoring?p=42", { body });
const browserEnvelopes = () => ingest.requests.filter((r) => r.complete && r.body.includes('"message":"spool-'));

it("loses nothing acknowledged when killed with SIGKILL right after the answer, and delivers it after a restart", async () => {
  await ingest.stop();
  const first = await start();
  const body = datedEnvelope(dsn, "spool-sigkill");
  const answered = await post(first, body);
  first.child.kill("SIGKILL");
  expect(answered.status).toBe(200);
  expect(answered.body.toString()).toBe("{}");
  expect(await first.stop()).toBe(null);

  await ingest.start();
  const second = await start();
  await ingest.waitFor(() => browserEnvelopes().length === 1, 10_000);
  expect(withoutSentAt(browserEnvelopes()[0]?.body as Buffer)).toBe(withoutSentAt(body));
  expect(await second.stop()).toBe(0);
});

it("spools envelopes while the ingest is down across a SIGTERM, and a restart delivers them all", async () => {
  ingest.reset();
  await ingest.stop();
  const server = await start();
  const bodies = Array.from({ length: 30 }, (_, i) => datedEnvelope(dsn, `spool-restart-${i}`));
  for (const body of bodies) expect((await post(server, body)).status).toBe(200);
  expect(await server.stop("SIGTERM")).toBe(0);

  await ingest.start();
  const restarted = await start();
  await ingest.waitFor(() => new Set(browserEnvelopes().map((r) => withoutSentAt(r.body))).size === 30, 15_000);
  expect(await restarted.stop()).toBe(0);
});

it("stops at start with exit 1 naming SENTRY_TUNNEL_SPOOL_DIR when the directory cannot be opened", async () => {
  const { code, stderr } = await runFailingStart({ SENTRY_DSN: dsn, SENTRY_TUNNEL_SPOOL_DIR: "/dev/null/spool" });
  expect(code).toBe(1);
  expect(stderr).toContain("SENTRY_TUNNEL_SPOOL_DIR");
  expect(stderr).toContain("/dev/null/spool");
});
