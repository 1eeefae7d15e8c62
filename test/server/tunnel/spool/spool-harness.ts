import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import { type FakeIngest, startFakeIngest } from "../../../support/fake-ingest";
import { type SpoolOptions, SpoolStore } from "#src/server/tunnel/spool";
import type { SpoolEntry } from "#src/server/tunnel/spool/types";
import type { TunnelOptions } from "#src/server/tunnel/options";
import { startTunnel, type TunnelServer } from "../harness";

/** A fresh spool directory; remove() deletes it. */
export function spoolDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), "outpost-spool-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Test settings: one delivery at a time (so arrival order is spool order) and short backoffs. */
export function spoolOptions(dir: string, overrides: Partial<SpoolOptions> = {}): SpoolOptions {
  return {
    dir,
    maxEnvelopeBytes: 64 * 1024,
    maxBytes: 1024 * 1024,
    maxAgeSeconds: 3600,
    concurrency: 1,
    failureThreshold: 3,
    backoff: { baseMs: 20, capMs: 100 },
    ...overrides,
  };
}

/** A tunnel with a spool in its own directory, removed on close. */
export async function startSpoolingTunnel(
  dsn: string,
  spool: Partial<SpoolOptions> = {},
  options: Partial<TunnelOptions> = {},
): Promise<TunnelServer & { dir: string }> {
  const dir = spoolDir();
  const server = await startTunnel({ allowedDsns: [dsn], headersTimeoutMs: 500, ...options, spool: spoolOptions(dir.dir, spool) });
  return {
    ...server,
    dir: dir.dir,
    close: async () => {
      await server.close();
      dir.remove();
    },
  };
}

/** An envelope as the tunnel spools it, for filling a store directly. */
export function spoolEntry(body: string | Buffer, overrides: Partial<SpoolEntry> = {}): SpoolEntry {
  return {
    receivedAt: Date.now(),
    upstream: { origin: "http://127.0.0.1:1", path: "/api/42/envelope/" },
    headers: { "content-type": "text/plain" },
    categories: ["error"],
    body: Buffer.from(body),
    ...overrides,
  };
}

let sequence = 0;

/** An envelope with a `sent_at` and an item of the given type; `tag` makes it recognisable. */
export function datedEnvelope(dsn: string, tag: string, type = "event", sentAt = new Date().toISOString()): Buffer {
  sequence += 1;
  const header = JSON.stringify({ event_id: `${sequence}`.padStart(32, "0"), dsn, sent_at: sentAt });
  return Buffer.from(`${header}\n{"type":"${type}"}\n{"message":"${tag}"}\n`);
}

/** The body with its header's sent_at removed, to compare envelopes apart from it. */
export function withoutSentAt(body: Buffer): string {
  return body.toString("utf8").replace(/"sent_at":"[^"]*"/, '"sent_at":""');
}

export const sentAtOf = (body: Buffer): string =>
  (JSON.parse(body.toString("utf8").split("\n", 1)[0] as string) as { sent_at: string }).sent_at;

/** One fake ingest for a test file, reset after each test; read `fake` and `dsn` inside tests. */
export function sharedFakeIngest(): { fake: FakeIngest; dsn: string } {
  const fixture = {} as { fake: FakeIngest; dsn: string };
  beforeAll(async () => {
    fixture.fake = await startFakeIngest();
    fixture.dsn = `http://abc123@127.0.0.1:${fixture.fake.port}/42`;
  });
  afterEach(() => fixture.fake.reset());
  afterAll(() => fixture.fake.close());
  return fixture;
}

export interface SpoolSetup {
  spool?: Partial<SpoolOptions>;
  /** Fields every stored envelope gets (arrival time, headers). */
  entry?: Partial<SpoolEntry>;
  /** Runs on the filled store before replay starts (to break it). */
  prepare?: (store: SpoolStore) => void;
}

/** A tunnel whose spool already holds these envelopes, oldest first, with the store at hand to read (and to break). */
export async function tunnelOverSpool(
  ingest: { fake: FakeIngest; dsn: string },
  bodies: Buffer[],
  { spool = {}, entry = {}, prepare }: SpoolSetup = {},
): Promise<TunnelServer & { store: SpoolStore }> {
  const dir = spoolDir();
  const store = SpoolStore.open(dir.dir);
  const upstream = { origin: ingest.fake.origin, path: "/api/42/envelope/" };
  store.insert(
    bodies.map((body) => spoolEntry(body, { upstream, ...entry })),
    1 << 30,
  );
  prepare?.(store);
  const tunnel = await startTunnel({ allowedDsns: [ingest.dsn], headersTimeoutMs: 500, spool: spoolOptions(dir.dir, { store, ...spool }) });
  return {
    ...tunnel,
    store,
    close: async () => {
      await tunnel.close();
      dir.remove();
    },
  };
}
