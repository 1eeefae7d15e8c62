import type Router from "@koa/router";
import { DEFAULT_IPV6_PREFIX } from "../limits/client-key";
import { LocalLimiter } from "../limits/local-limiter";
import { HeldBytes } from "./body/body-copy";
import { type Allowlist, compileAllowlist } from "./check/allowlist";
import { stillAllowed } from "./check/still-allowed";
import { upstreamLabels } from "./check/upstream-url";
import { DEFAULT_BODY_TIMEOUT_MS, DEFAULT_RATE_LIMIT_MAX_CLIENTS, DEFAULT_SPOOL_MAX_MEMORY_BYTES } from "./contract/defaults";
import { createReject } from "./forward/reject";
import { createUpstreamAgent, type UpstreamAgent } from "./forward/upstream-agent";
import type { TunnelOptions } from "./options";
import { createTunnelRouter } from "./router";
import { type DroppedItems, Spool, type SpoolStats, type UpstreamDepth } from "./spool";
import type { RequestDispatcher } from "./contract/types";
import { ClientReports } from "./reports/client-reports";
import { reportSender } from "./reports/report-sender";
import { TUNNEL_FILTERS } from "./filters";

export { TUNNEL_DEFAULTS } from "./contract/defaults";
export type { TunnelOptions } from "./options";
export { parseProjectQuota, type ProjectQuota } from "./check/project-quota";
export { TUNNEL_FILTERS, type TunnelFilter } from "./filters";
export { SpoolOpenError, type SpoolStats, type UpstreamDepth } from "./spool";
export type { CircuitState, RejectReason, SpoolDropReason, TunnelLogger, TunnelObserver } from "./contract/types";

export interface Tunnel {
  /** Mount ahead of any body parser, auth or tracing middleware. */
  router: Router;
  /** The spool's depth, when spooling is on. */
  spoolStats: (() => SpoolStats) | undefined;
  /** The spool's depth per upstream (its metrics label), when spooling is on. */
  spoolDepths: (() => UpstreamDepth[]) | undefined;
  /**
   * Delivers what the spool holds until `deadline` (ms since the epoch) or until its ingest is found
   * down; call once the HTTP server drained, before close().
   */
  drain(deadline: number): Promise<void>;
  /**
   * Stops the spool's replay between envelopes and closes its store, then the tunnel's own undici
   * Agent (not an injected dispatcher); call after the HTTP server drained.
   */
  close(): Promise<void>;
}

// Idle upstream connections are kept this long for the next envelope; servers' keep-alive hints can shorten it.
const KEEP_ALIVE_TIMEOUT_MS = 10_000;
const PATH = /^\/[A-Za-z0-9/._~-]*$/;

function forwardIpOf(mode: TunnelOptions["forwardIp"]) {
  if (mode !== undefined && !["full", "truncated", "none"].includes(mode)) throw new Error("Sentry tunnel: forwardIp must be full, truncated or none");
  return mode ?? "full";
}

function scrubModeOf(mode: TunnelOptions["scrub"]) {
  if (mode !== undefined && mode !== "off" && mode !== "defaults") throw new Error("Sentry tunnel: scrub must be off or defaults");
  return mode ?? "off";
}

function positiveInt(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new Error(`Sentry tunnel: ${name} must be a positive integer`);
  return value;
}

export function createTunnel(options: TunnelOptions): Tunnel {
  if (!PATH.test(options.path) || options.path.includes("//")) {
    throw new Error("Sentry tunnel: path must be a plain absolute path such as /monitoring");
  }
  const path = options.path.length > 1 ? options.path.replace(/\/+$/, "") : options.path;
  const allowlist = compileAllowlist(options.allowedDsns);
  const maxBytes = positiveInt("maxBytes", options.maxBytes);
  const connectTimeoutMs = positiveInt("connectTimeoutMs", options.connectTimeoutMs);
  const headersTimeoutMs = positiveInt("headersTimeoutMs", options.headersTimeoutMs);
  const bodyTimeoutMs = positiveInt("bodyTimeoutMs", options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS);
  if (!Number.isInteger(options.rateLimitPerMinute) || options.rateLimitPerMinute < 0) {
    throw new Error("Sentry tunnel: rateLimitPerMinute must be a non-negative integer (0 = off)");
  }
  const ipv6Prefix = options.rateLimitIpv6Prefix ?? DEFAULT_IPV6_PREFIX;
  if (!Number.isInteger(ipv6Prefix) || ipv6Prefix < 1 || ipv6Prefix > 128) {
    throw new Error("Sentry tunnel: rateLimitIpv6Prefix must be a whole number of bits from 1 to 128");
  }
  const limiter =
    options.rateLimitPerMinute === 0
      ? undefined
      : (options.limiter ??
        new LocalLimiter(
          options.rateLimitPerMinute,
          60_000,
          positiveInt("rateLimitMaxClients", options.rateLimitMaxClients ?? DEFAULT_RATE_LIMIT_MAX_CLIENTS),
        ));

  let ownAgent: UpstreamAgent | undefined;
  let dispatcher: RequestDispatcher;
  if (options.dispatcher) {
    dispatcher = options.dispatcher;
  } else {
    // Keep-alive: envelopes arrive in bursts and a new TLS handshake per envelope is wasted time.
    ownAgent = createUpstreamAgent({
      connectTimeout: connectTimeoutMs,
      headersTimeout: headersTimeoutMs,
      bodyTimeout: bodyTimeoutMs,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    });
    dispatcher = ownAgent;
  }

  let reports: ClientReports | undefined;
  const spool =
    options.spool &&
    createSpool(options, allowlist, dispatcher, headersTimeoutMs, bodyTimeoutMs, (_reason, dropped) => {
      for (const { origin, path, dsn, counts } of dropped) reports?.record({ dsn, upstream: { origin, path } }, "queue_overflow", new Map(Object.entries(counts)));
    });
  const reportInterval = options.clientReportIntervalMs ?? 0;
  if (!Number.isFinite(reportInterval) || reportInterval < 0) throw new Error("Sentry tunnel: clientReportIntervalMs must be 0 (off) or more");
  if (reportInterval > 0) {
    const send = reportSender(spool, dispatcher, headersTimeoutMs, bodyTimeoutMs);
    reports = new ClientReports(reportInterval, send, options.observer, options.logger);
  }
  const filters = [...new Set(options.filters ?? [])];
  for (const filter of filters) {
    if (!TUNNEL_FILTERS.includes(filter)) throw new Error(`Sentry tunnel: unknown filter ${filter} (known: ${TUNNEL_FILTERS.join(", ")})`);
  }
  const quota = options.projectQuota && (options.quotaLimiter ?? new LocalLimiter(positiveInt("projectQuota points", options.projectQuota.points), options.projectQuota.durationSeconds * 1000, DEFAULT_RATE_LIMIT_MAX_CLIENTS));
  // Every configured upstream's circuit is reported from the start, closed.
  for (const { upstream } of allowlist.entries) spool?.circuitFor(upstream.origin);
  const router = createTunnelRouter({
    path,
    allowlist,
    limiter,
    ipv6Prefix,
    dispatcher,
    maxBytes,
    headersTimeoutMs,
    bodyTimeoutMs,
    observer: options.observer,
    logger: options.logger,
    reject: createReject(options.observer, options.logger),
    spool,
    spoolMemory: options.spool && new HeldBytes(options.spool.maxMemoryBytes ?? DEFAULT_SPOOL_MAX_MEMORY_BYTES),
    forwardIp: forwardIpOf(options.forwardIp),
    scrub: scrubModeOf(options.scrub),
    // Items the scrubber could not scrub and dropped: counted in the client reports as Sentry's `invalid`.
    onDrop: (target, drop) => {
      reports?.record(target, drop.reason, new Map([[drop.category, drop.quantity]]));
      options.onScrubDrop?.(target, drop);
    },
    reports,
    filters,
    quota,
  });
  spool?.start();

  return {
    router,
    spoolStats: spool && (() => spool.stats()),
    spoolDepths: spool && (() => spool.depths()),
    drain: async (deadline) => {
      // The last reports first, so that they are delivered with the rest.
      await reports?.flush();
      await spool?.drain(deadline);
    },
    close: async () => {
      await reports?.close();
      await spool?.close();
      await ownAgent?.close();
    },
  };
}

function createSpool(
  options: TunnelOptions,
  allowlist: Allowlist,
  dispatcher: RequestDispatcher,
  headersTimeoutMs: number,
  bodyTimeoutMs: number,
  droppedItems: (reason: "max_age" | "max_bytes", dropped: DroppedItems[]) => void,
): Spool {
  const spool = options.spool as NonNullable<TunnelOptions["spool"]>;
  positiveInt("spool maxEnvelopeBytes", spool.maxEnvelopeBytes);
  positiveInt("spool maxBytes", spool.maxBytes);
  positiveInt("spool maxAgeSeconds", spool.maxAgeSeconds);
  const maxMemoryBytes = positiveInt("spool maxMemoryBytes", spool.maxMemoryBytes ?? DEFAULT_SPOOL_MAX_MEMORY_BYTES);
  return new Spool({ ...spool, maxMemoryBytes }, {
    dispatcher,
    stillAllowed: (headers, body) => stillAllowed(allowlist, headers, body),
    headersTimeoutMs,
    bodyTimeoutMs,
    observer: options.observer,
    logger: options.logger,
    upstreamLabel: upstreamLabels(allowlist.entries.map((entry) => entry.upstream)),
    droppedItems,
  });
}
