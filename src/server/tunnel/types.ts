import type { Dispatcher } from "undici";

export type RejectReason =
  | "malformed"
  | "forbidden"
  | "too_large"
  | "rate_limited"
  | "method"
  | "upstream_unreachable"
  | "upstream_timeout"
  | "client_aborted";

/** Counters for the operators' metrics; a plain object is enough in tests. */
export interface TunnelObserver {
  /** The ingest answered an envelope; `bytes` is how much of the body had been read from the client by then (all of it, unless the ingest answered early). */
  forwarded(bytes: number): void;
  rejected(reason: RejectReason): void;
  /** Status of the ingest's answer and seconds from dispatch to its response headers. */
  upstreamResponse(status: number, seconds: number): void;
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
}
