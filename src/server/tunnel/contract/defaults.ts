/** Documented defaults for the Sentry tunnel; the env module reads them for its SENTRY_TUNNEL_* variables. */

export const DEFAULT_TUNNEL_PATH = "/monitoring";

/**
 * 20 MiB. Sentry's ingest caps a single event at 1 MiB but a whole envelope at 200 MiB: session
 * replay segments and attachments travel in the same envelope and make it far larger than one
 * event. 20 MiB leaves room for those while keeping an abusive upload on our bandwidth small;
 * anything larger the browser SDK would rarely send anyway.
 */
export const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;

/** Envelopes per minute per client IP; a page sends a handful (errors, sessions, replay segments). */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 60;

/** How many client IPs the rate limiter remembers; the least recently seen are forgotten first. */
export const DEFAULT_RATE_LIMIT_MAX_CLIENTS = 10_000;

/** Connecting to the ingest (TCP + TLS). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

/** From the end of the upload to the ingest's response headers. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;

/** Between chunks of the ingest's response body (a short JSON document in practice). */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

/** Under the working directory for `npm start`; the image sets /var/lib/outpost/spool. `off` turns spooling off. */
export const DEFAULT_SPOOL_DIR = ".outpost/spool";

/** 1 MiB: errors, sessions, feedback and client reports fit; replays and attachments stream and get 503 in an outage. */
export const DEFAULT_SPOOL_MAX_ENVELOPE_BYTES = 1024 * 1024;

/**
 * 2 MiB of streamed envelopes held in memory until the ingest answers, across all uploads: two
 * envelopes of the largest spooled size, or a hundred 20 KiB ones, can still be spooled if the
 * ingest fails mid-upload. Kept small because these copies cost about their budget in peak memory
 * under a burst of large uploads (docs/decisions/0004-spool-memory-budget.md).
 */
export const DEFAULT_SPOOL_MAX_MEMORY_BYTES = 2 * 1024 * 1024;

export const DEFAULT_SPOOL_MAX_BYTES = 256 * 1024 * 1024;

/** A day: older errors are of little use, and Sentry's ingest drops events older than its retention window anyway. */
export const DEFAULT_SPOOL_MAX_AGE_SECONDS = 86_400;

/** A minute, as Sentry's SDKs send their own client reports: one envelope per DSN per minute at most. */
export const DEFAULT_CLIENT_REPORT_INTERVAL_SECONDS = 60;

export const TUNNEL_DEFAULTS = {
  path: DEFAULT_TUNNEL_PATH,
  maxBytes: DEFAULT_MAX_BYTES,
  rateLimitPerMinute: DEFAULT_RATE_LIMIT_PER_MINUTE,
  rateLimitMaxClients: DEFAULT_RATE_LIMIT_MAX_CLIENTS,
  connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS,
  headersTimeoutMs: DEFAULT_HEADERS_TIMEOUT_MS,
  bodyTimeoutMs: DEFAULT_BODY_TIMEOUT_MS,
  spoolDir: DEFAULT_SPOOL_DIR,
  spoolMaxEnvelopeBytes: DEFAULT_SPOOL_MAX_ENVELOPE_BYTES,
  spoolMaxBytes: DEFAULT_SPOOL_MAX_BYTES,
  spoolMaxMemoryBytes: DEFAULT_SPOOL_MAX_MEMORY_BYTES,
  spoolMaxAgeSeconds: DEFAULT_SPOOL_MAX_AGE_SECONDS,
  clientReportIntervalSeconds: DEFAULT_CLIENT_REPORT_INTERVAL_SECONDS,
} as const;
