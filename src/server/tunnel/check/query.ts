/** The tunnel URL's query: `o` organisation id, `p` project id, `r` region (see shared/sentry/tunnel-url). */
export interface TunnelQuery {
  o?: string;
  p: string;
  r?: string;
}

export type QueryResult = { ok: true; query: TunnelQuery } | { ok: false; detail: string };

// Values only ever select among allowed DSNs, but they are held to the exact shapes the browser
// sends anyway, so nothing like "1@evil.com", "../" or "evil.com#" gets any further.
const DIGITS = /^\d{1,20}$/;
const REGION = /^[a-z0-9-]{1,32}$/;
const MAX_QUERY_LENGTH = 256;
const PATTERNS: Record<string, RegExp> = { o: DIGITS, p: DIGITS, r: REGION };

export function parseTunnelQuery(querystring: string): QueryResult {
  if (querystring.length > MAX_QUERY_LENGTH) return { ok: false, detail: "query string too long" };
  const values: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(querystring)) {
    const pattern = PATTERNS[key];
    if (!pattern) return { ok: false, detail: "unexpected query parameter" };
    if (key in values) return { ok: false, detail: `duplicate query parameter ${key}` };
    if (!pattern.test(value)) return { ok: false, detail: `invalid query parameter ${key}` };
    values[key] = value;
  }
  const { o, p, r } = values;
  if (p === undefined) return { ok: false, detail: "missing query parameter p" };
  if (r !== undefined && o === undefined) return { ok: false, detail: "query parameter r requires o" };
  const query: TunnelQuery = { p };
  if (o !== undefined) query.o = o;
  if (r !== undefined) query.r = r;
  return { ok: true, query };
}
