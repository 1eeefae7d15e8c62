import { isSaasDsn, parseDsn } from "../../shared/sentry/dsn";

/**
 * The same-origin URL the browser SDK posts envelopes to (its `tunnel` option).
 * The server checks these parameters against the envelope's DSN, so they must be derived from the same DSN.
 */
export function tunnelUrl(dsn: string, tunnelPath = "/monitoring"): string {
  const parsed = parseDsn(dsn);
  if (!isSaasDsn(parsed)) return `${tunnelPath}?p=${parsed.projectId}`;
  const region = parsed.region === undefined ? "" : `&r=${parsed.region}`;
  return `${tunnelPath}?o=${parsed.orgId}&p=${parsed.projectId}${region}`;
}
