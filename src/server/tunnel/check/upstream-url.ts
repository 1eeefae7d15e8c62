import { isSaasDsn, type ParsedDsn } from "../../../shared/sentry/dsn";
import type { TunnelQuery } from "./query";

/** Where an allowed DSN's envelopes go; built from configuration only, never from request input. */
export interface Upstream {
  /** `protocol//host[:port]`, the undici origin. */
  origin: string;
  /** Request path including any query. */
  path: string;
}

export function upstreamFor(dsn: ParsedDsn): Upstream {
  if (isSaasDsn(dsn)) {
    const region = dsn.region === undefined ? "" : `.${dsn.region}`;
    // hsts=0 asks the ingest to leave out Strict-Transport-Security, which is meaningless to relay.
    return {
      origin: `https://o${dsn.orgId}.ingest${region}.sentry.io`,
      path: `/api/${dsn.projectId}/envelope/?hsts=0`,
    };
  }
  const port = dsn.port === "" ? "" : `:${dsn.port}`;
  return {
    origin: `${dsn.protocol}//${dsn.host}${port}`,
    path: `${dsn.path}/api/${dsn.projectId}/envelope/`,
  };
}

/** The label an upstream is known by in metrics. */
export const OTHER_UPSTREAM = "other";

/**
 * Names upstream origins for metrics: the host (and port) of each configured upstream, and
 * `other` for anything else (an envelope spooled for a DSN since removed), so that no input
 * can add series.
 */
export function upstreamLabels(upstreams: readonly Upstream[]): (origin: string) => string {
  const known = new Map(upstreams.map(({ origin }) => [origin, new URL(origin).host]));
  return (origin) => known.get(origin) ?? OTHER_UPSTREAM;
}

/** The browser derives the query from the same DSN (tunnelUrl), so any disagreement is a malformed request. */
export function queryMatchesDsn(query: TunnelQuery, dsn: ParsedDsn): boolean {
  if (query.p !== dsn.projectId) return false;
  if (!isSaasDsn(dsn)) return query.o === undefined && query.r === undefined;
  return query.o === dsn.orgId && query.r === dsn.region;
}
