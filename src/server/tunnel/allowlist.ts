import { type ParsedDsn, parseDsn, sameDsn } from "../../shared/sentry/dsn";
import { type Upstream, upstreamFor } from "./upstream-url";

export interface AllowedDsn {
  dsn: ParsedDsn;
  upstream: Upstream;
}

/** Hides the public key (user info) so configuration errors can be logged safely. */
export function redactDsn(dsn: string): string {
  return dsn.replace(/^([^:/]*:\/\/)[^@/]*@/, "$1***@");
}

/** Parses every allowed DSN once, at start; a bad one stops the tunnel from being created. */
export function compileAllowlist(dsns: readonly string[]): AllowedDsn[] {
  if (dsns.length === 0) throw new Error("Sentry tunnel: allowedDsns is empty; it would reject every envelope");
  return dsns.map((raw, index) => {
    let dsn: ParsedDsn;
    try {
      dsn = parseDsn(raw);
    } catch (error) {
      throw new Error(
        `Sentry tunnel: allowedDsns[${index}] (${redactDsn(raw)}) is not valid: ${(error as Error).message}`,
      );
    }
    return { dsn, upstream: upstreamFor(dsn) };
  });
}

export function findAllowed(allowlist: readonly AllowedDsn[], dsn: ParsedDsn): AllowedDsn | undefined {
  return allowlist.find((entry) => sameDsn(entry.dsn, dsn));
}
