import type { Dispatcher } from "undici";
import type { SpoolOptions } from "./spool";
import type { CircuitState, SpoolDropReason } from "./spool/types";

export type RejectReason =
  | "malformed"
  | "forbidden"
  | "too_large"
  | "rate_limited"
  | "method"
  | "upstream_unreachable"
  | "upstream_timeout"
  | "client_aborted"
  // The ingest failed and the envelope could not be spooled: too large, not kept for lack of
  // memory (see SpoolOptions.maxMemoryBytes), or the write failed.
  | "spool_too_large"
  | "spool_busy"
  | "spool_failed";

/** Counters for the operators' metrics; a plain object is enough in tests. */
export interface TunnelObserver {
  /** The ingest answered an envelope; `bytes` is how much of the body had been read from the client by then (all of it, unless the ingest answered early). */
  forwarded(bytes: number): void;
  rejected(reason: RejectReason): void;
  /** Status of the ingest's answer and seconds from dispatch to its response headers. */
  upstreamResponse(status: number, seconds: number): void;
  /** An envelope the ingest could not take is on disk and was acknowledged. */
  spooled?(bytes: number): void;
  /** A spooled envelope's delivery attempt: the ingest's status, or `unreachable`/`timeout`. */
  replayed?(status: string): void;
  spoolDropped?(reason: SpoolDropReason, count: number): void;
  /** An upstream's circuit changed; `upstream` is its metrics label (see upstreamLabels). */
  circuitChanged?(state: CircuitState, upstream: string): void;
}

/** The subset of a pino logger the tunnel uses. */
export interface TunnelLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface TunnelOptions {
  /** Exact path, e.g. "/monitoring"; a trailing slash is also accepted on requests. */
  path: string;
  /** Every DSN the tunnel may relay to, the browser's included. */
  allowedDsns: string[];
  maxBytes: number;
  /** Envelopes per minute per client IP; 0 switches the limit off. */
  rateLimitPerMinute: number;
  rateLimitMaxClients?: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs?: number;
  /**
   * Injected in tests; by default a keep-alive undici Agent owned (and closed) by the tunnel.
   * connectTimeoutMs only configures that own Agent; the headers and body timeouts are set per
   * request and hold with an injected dispatcher too.
   */
  dispatcher?: Dispatcher;
  observer?: TunnelObserver;
  logger?: TunnelLogger;
  /** Keep envelopes the ingest cannot take and deliver them later; off when absent. */
  spool?: SpoolOptions;
}
