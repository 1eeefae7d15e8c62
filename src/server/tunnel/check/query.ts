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
// Maps, not object literals: a key such as "__proto__" or "constructor" must find nothing.
const PATTERNS = new Map<string, RegExp>([
  ["o", DIGITS],
  ["p", DIGITS],
  ["r", REGION],
]);

export function parseTunnelQuery(querystring: string): QueryResult {
  if (querystring.length > MAX_QUERY_LENGTH) return { ok: false, detail: "query string too long" };
  const values = new Map<string, string>();
  for (const [key, value] of new URLSearchParams(querystring)) {
    const pattern = PATTERNS.get(key);
    if (!pattern) return { ok: false, detail: "unexpected query parameter" };
    if (values.has(key)) return { ok: false, detail: `duplicate query parameter ${key}` };
    if (!pattern.test(value)) return { ok: false, detail: `invalid query parameter ${key}` };
    values.set(key, value);
  }
  const [o, p, r] = [values.get("o"), values.get("p"), values.get("r")];
  if (p === undefined) return { ok: false, detail: "missing query parameter p" };
  if (r !== undefined && o === undefined) return { ok: false, detail: "query parameter r requires o" };
  const query: TunnelQuery = { p };
  if (o !== undefined) query.o = o;
  if (r !== undefined) query.r = r;
  return { ok: true, query };
}
