import { type ParsedDsn, parseDsn, sameDsn } from "../../../shared/sentry/dsn";
import { type Upstream, upstreamFor } from "./upstream-url";

export interface AllowedDsn {
  dsn: ParsedDsn;
  upstream: Upstream;
}

/** Hides the public key (user info) so configuration errors can be logged safely. */
export function redactDsn(dsn: string): string {
  return dsn.replace(/^([^:/]*:\/\/)[^@/]*@/, "$1***@");
}

// Distinct DSN strings remembered as allowed: a browser sends the one it was built with, and no
// input can grow the map past this.
const MAX_KNOWN_STRINGS = 16;

/**
 * The allowed DSNs, and the entry an envelope's DSN string names. Parsing the string (a URL)
 * was most of the per-envelope check, so strings already found allowed skip it.
 */
export class Allowlist {
  readonly entries: readonly AllowedDsn[];
  readonly #known = new Map<string, AllowedDsn>();

  constructor(entries: readonly AllowedDsn[]) {
    this.entries = entries;
  }

  /** The allowed entry for `dsn`, or undefined; throws parseDsn's error when it is no DSN. */
  match(dsn: string): AllowedDsn | undefined {
    const known = this.#known.get(dsn);
    if (known) return known;
    const allowed = findAllowed(this.entries, parseDsn(dsn));
    if (allowed && this.#known.size < MAX_KNOWN_STRINGS) this.#known.set(dsn, allowed);
    return allowed;
  }
}

/** Parses every allowed DSN once, at start; a bad one stops the tunnel from being created. */
export function compileAllowlist(dsns: readonly string[]): Allowlist {
  if (dsns.length === 0) throw new Error("Sentry tunnel: allowedDsns is empty; it would reject every envelope");
  const entries = dsns.map((raw, index) => {
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
  return new Allowlist(entries);
}

function findAllowed(allowlist: readonly AllowedDsn[], dsn: ParsedDsn): AllowedDsn | undefined {
  return allowlist.find((entry) => sameDsn(entry.dsn, dsn));
}
