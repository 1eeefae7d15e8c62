import type { Dispatcher } from "undici";
import type { Limiter } from "../limits/limiter";
import type { SpoolOptions } from "./spool";
import type { TunnelLogger, TunnelObserver } from "./contract/types";
import type { ForwardIp } from "./contract/types";
import type { ScrubDropListener, ScrubMode } from "./scrub";
import type { ProjectQuota } from "./check/project-quota";
import type { TunnelFilter } from "./filters";

export interface TunnelOptions {
  /** Exact path, e.g. "/monitoring"; a trailing slash is also accepted on requests. */
  path: string;
  /** Every DSN the tunnel may relay to, the browser's included. */
  allowedDsns: string[];
  maxBytes: number;
  /** Envelopes per minute per client IP; 0 switches the limit off. */
  rateLimitPerMinute: number;
  rateLimitMaxClients?: number;
  /** Counts rateLimitPerMinute per client IP (shared through Redis when there is one); by default this process's own. */
  limiter?: Limiter;
  /** Leading bits of an IPv6 client's address the limit counts it by (RATE_LIMIT_IPV6_PREFIX); 64 by default. */
  rateLimitIpv6Prefix?: number;
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
  /** What of the visitor's address goes upstream as X-Sentry-Forwarded-For (SENTRY_TUNNEL_FORWARD_IP); `full` by default. */
  forwardIp?: ForwardIp;
  /** `defaults`: Relay's default PII rules applied to events and transactions before they leave (SENTRY_TUNNEL_SCRUB); `off` by default. */
  scrub?: ScrubMode;
  /** Hears of each item the scrubber dropped (reason `invalid`), for client reports. */
  onScrubDrop?: ScrubDropListener;
  /** Keep envelopes the ingest cannot take and deliver them later; off when absent. */
  spool?: SpoolOptions;
  /** Between one DSN's client reports of what the tunnel dropped (SENTRY_TUNNEL_CLIENT_REPORT_INTERVAL_S); 0 or absent: none sent. */
  clientReportIntervalMs?: number;
  /** Relay's inbound filters to apply (SENTRY_TUNNEL_FILTERS); none by default. */
  filters?: readonly TunnelFilter[];
  /** Envelopes per DSN project per window (SENTRY_TUNNEL_PROJECT_QUOTA); off when absent. */
  projectQuota?: ProjectQuota;
  /** Counts projectQuota (shared through Redis when there is one); by default this process's own. */
  quotaLimiter?: Limiter;
}
