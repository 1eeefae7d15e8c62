import type { Dispatcher } from "undici";

// A leaf: what every stage of the tunnel shares, importing nothing of it.

/** What of the visitor's address goes upstream as `X-Sentry-Forwarded-For` (SENTRY_TUNNEL_FORWARD_IP). */
export type ForwardIp = "full" | "truncated" | "none";

export type RejectReason =
  | "malformed"
  | "forbidden"
  | "too_large"
  | "rate_limited"
  // Over SENTRY_TUNNEL_PROJECT_QUOTA for the envelope's project.
  | "quota"
  | "method"
  | "upstream_unreachable"
  | "upstream_timeout"
  | "client_aborted"
  // The ingest failed and the envelope could not be spooled: too large, not kept for lack of
  // memory (see SpoolOptions.maxMemoryBytes), or the write failed.
  | "spool_too_large"
  | "spool_busy"
  | "spool_failed";

/** Status, counter reason, the client-facing detail, and extra fields for the log line. */
export type Rejection = [status: number, reason: RejectReason, detail: string, logFields?: Record<string, unknown>];

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
  /** Envelopes dropped unsent; `upstream` is their ingest's metrics label. */
  spoolDropped?(reason: SpoolDropReason, count: number, upstream: string): void;
  /** Items the tunnel dropped and counts in its client reports, by Sentry's discard reason and data category. */
  discarded?(reason: string, category: string, quantity: number): void;
  /** Values the scrubber replaced in events and transactions (SENTRY_TUNNEL_SCRUB), by rule. */
  scrubbed?(rule: string, count: number): void;
  /** An upstream's circuit changed; `upstream` is its metrics label (see upstreamLabels). */
  circuitChanged?(state: CircuitState, upstream: string): void;
}

/** The subset of a pino logger the tunnel uses. */
export interface TunnelLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** What the tunnel and its spool use of a dispatcher: an injected one, or the tunnel's own agent. */
export type RequestDispatcher = Pick<Dispatcher, "request">;

/** Why envelopes left the spool undelivered. */
export type SpoolDropReason = "max_age" | "max_bytes" | "rejected" | "dsn_not_allowed";

export type CircuitState = "closed" | "open" | "half_open";
