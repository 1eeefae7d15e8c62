import type { Allowlist } from "./check/allowlist";
import type { TunnelFilter } from "./filters";
import type { ForwardConfig } from "./forward/forward";
import type { Limiter } from "../limits/limiter";

/** What the tunnel's router is built from: where it listens, what it lets through, where it sends. */
export interface RouterConfig extends ForwardConfig {
  path: string;
  allowlist: Allowlist;
  limiter: Limiter | undefined;
  /** Leading bits of an IPv6 address the limiter counts a client by. */
  ipv6Prefix: number;
  /** SENTRY_TUNNEL_FILTERS; empty: envelopes stream unread past their header. */
  filters: readonly TunnelFilter[];
  /** SENTRY_TUNNEL_PROJECT_QUOTA, counted per DSN project; absent: off. */
  quota: Limiter | undefined;
}
