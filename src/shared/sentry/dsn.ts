// Sentry DSN parsing shared by the browser and the server: only the WHATWG URL global, no Node imports.

export interface ParsedDsn {
  protocol: "http:" | "https:";
  publicKey: string;
  /** Hostname, lower-cased by URL parsing; IPv6 keeps its brackets. */
  host: string;
  /** "" when the protocol's default port is used. */
  port: string;
  /** Path prefix before the project id, without trailing slash; "" if none. */
  path: string;
  projectId: string;
  /** Set only for Sentry SaaS ingest hosts. */
  orgId?: string;
  /** Set only for Sentry SaaS ingest hosts that carry a region label. */
  region?: string;
}

const SAAS_HOST = /^o(\d+)\.ingest(?:\.([a-z0-9-]+))?\.sentry\.io$/;
const PUBLIC_KEY = /^\w+$/;
const PROJECT_ID = /^\d+$/;

function invalid(reason: string): Error {
  // The DSN itself is left out on purpose: callers decide how much of it may appear in logs.
  return new Error(`Invalid Sentry DSN: ${reason}`);
}

export function parseDsn(dsn: string): ParsedDsn {
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    throw invalid("not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalid(`protocol must be http: or https:, got ${url.protocol}`);
  }
  if (!url.username) throw invalid("missing public key");
  if (!PUBLIC_KEY.test(url.username)) throw invalid("public key has unexpected characters");
  if (!url.hostname) throw invalid("missing host");
  if (url.search || url.hash) throw invalid("unexpected query or fragment");

  const slash = url.pathname.lastIndexOf("/");
  const projectId = url.pathname.slice(slash + 1);
  if (!PROJECT_ID.test(projectId)) throw invalid("project id must be digits at the end of the path");

  const parsed: ParsedDsn = {
    protocol: url.protocol,
    publicKey: url.username,
    host: url.hostname,
    port: url.port,
    path: url.pathname.slice(0, slash).replace(/\/+$/, ""),
    projectId,
  };
  const saas = SAAS_HOST.exec(url.hostname);
  if (saas?.[1]) {
    parsed.orgId = saas[1];
    if (saas[2]) parsed.region = saas[2];
  }
  return parsed;
}

export function isSaasDsn(dsn: ParsedDsn): dsn is ParsedDsn & { orgId: string } {
  return dsn.orgId !== undefined;
}

export function sameDsn(a: ParsedDsn, b: ParsedDsn): boolean {
  return (
    a.protocol === b.protocol &&
    a.publicKey === b.publicKey &&
    a.host === b.host &&
    a.port === b.port &&
    a.path === b.path &&
    a.projectId === b.projectId
  );
}
