import type { AddressInfo } from "node:net";
import Koa from "koa";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createTunnel, type Tunnel } from "#src/server/tunnel";
import { type FakeIngest, startFakeIngest } from "../../support/fake-ingest";
import type { CircuitState, SpoolDropReason } from "#src/server/tunnel/spool";
import type { TunnelOptions } from "#src/server/tunnel/options";
import type { RejectReason, TunnelObserver } from "#src/server/tunnel/contract/types";

/** Counts what the tunnel reports, the way the metrics module would. */
export function countingObserver() {
  const counts = {
    forwarded: 0,
    bytes: 0,
    rejected: {} as Partial<Record<RejectReason, number>>,
    upstream: [] as { status: number; seconds: number }[],
    spooled: 0,
    replayed: {} as Record<string, number>,
    dropped: {} as Partial<Record<SpoolDropReason, number>>,
    circuit: [] as CircuitState[],
  };
  const observer: TunnelObserver = {
    forwarded(bytes) {
      counts.forwarded += 1;
      counts.bytes += bytes;
    },
    rejected(reason) {
      counts.rejected[reason] = (counts.rejected[reason] ?? 0) + 1;
    },
    upstreamResponse(status, seconds) {
      counts.upstream.push({ status, seconds });
    },
    spooled() {
      counts.spooled += 1;
    },
    replayed(status) {
      counts.replayed[status] = (counts.replayed[status] ?? 0) + 1;
    },
    spoolDropped(reason, count) {
      counts.dropped[reason] = (counts.dropped[reason] ?? 0) + count;
    },
    circuitChanged(state) {
      counts.circuit.push(state);
    },
  };
  return { observer, counts };
}

export function memoryLog() {
  const lines: { level: string; obj: object; msg: string }[] = [];
  const at = (level: string) => (obj: object, msg: string) => void lines.push({ level, obj, msg });
  return { logger: { info: at("info"), warn: at("warn"), error: at("error") }, lines };
}

export interface TunnelServer {
  port: number;
  tunnel: Tunnel;
  counts: ReturnType<typeof countingObserver>["counts"];
  log: ReturnType<typeof memoryLog>["lines"];
  /** Errors Koa reported through app.on("error"). */
  appErrors: unknown[];
  /** Open client connections to the tunnel's server. */
  connections(): Promise<number>;
  close(): Promise<void>;
}

/** A tiny Koa app with only the tunnel mounted, on an ephemeral loopback port. */
export async function startTunnel(
  options: Partial<TunnelOptions> & Pick<TunnelOptions, "allowedDsns">,
  koa: { proxy?: boolean } = {},
): Promise<TunnelServer> {
  const { observer, counts } = countingObserver();
  const { logger, lines } = memoryLog();
  const tunnel = createTunnel({
    path: "/monitoring",
    maxBytes: 1024 * 1024,
    rateLimitPerMinute: 0,
    connectTimeoutMs: 1_000,
    headersTimeoutMs: 2_000,
    observer,
    logger,
    ...options,
  });
  const app = new Koa({ proxy: koa.proxy ?? false });
  const appErrors: unknown[] = [];
  app.on("error", (error) => appErrors.push(error));
  app.use(tunnel.router.routes());
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    tunnel,
    counts,
    log: lines,
    appErrors,
    connections: () => new Promise((resolve) => server.getConnections((_error, count) => resolve(count))),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await tunnel.close();
    },
  };
}

export function envelope(dsn: string, items: (string | Buffer)[] = ['{"type":"event"}\n{"message":"hi"}']): Buffer {
  const header = JSON.stringify({ event_id: "9ec79c33ec9942ab8353589fcb2e04dc", dsn });
  return Buffer.concat([Buffer.from(`${header}\n`), ...items.map((item) => Buffer.from(item))]);
}

export { type ClientResponse, open, type PostOptions, responseOf, send, until } from "../../support/raw-http";

/**
 * A fake ingest for one test file, and a DSN on it: started before the file's tests, reset after
 * each, closed after all. Read its fields inside tests (they are set once the file starts).
 */
export function fakeIngestPerFile(): { readonly fake: FakeIngest; readonly dsn: string } {
  const state = {} as { fake: FakeIngest; dsn: string };
  beforeAll(async () => {
    state.fake = await startFakeIngest();
    state.dsn = `http://abc123@127.0.0.1:${state.fake.port}/42`;
  });
  afterEach(() => state.fake.reset());
  afterAll(() => state.fake.close());
  return state;
}
