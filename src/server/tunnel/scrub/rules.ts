import { isIP } from "node:net";

/** What replaced a value, for `outpost_tunnel_scrubbed_total{rule}`. */
export type ScrubRule = "password" | "cookie" | "creditcard" | "bearer" | "pemkey" | "urlauth" | "ip";

/** The names others test against: a scrubbed value, and a masked address. */
export const FILTERED = "[Filtered]";
export const IP_MASK = "[ip]";

// Relay's password-like key names (relay-pii `@password`), matched anywhere in the key, as Relay does.
const PASSWORD_KEY = /password|passwd|secret|api_?key|auth|credentials|mysql_pwd|private_?key|token/i;
const COOKIE_KEY = /^(?:cookies?|set-cookie)$/i;
// Values under these keys look like addresses but are versions (Chrome/124.0.0.0): never masked.
const VERSION_KEY = /version|user-agent/i;

/** What a key's name says about its value: filtered (and by which rule), never masked as an address, or nothing. */
export type KeyKind = "password" | "cookie" | "version" | undefined;

// Events repeat the same few hundred key names; what each is, is worked out once. Bounded, as keys come from visitors.
const KNOWN_KEYS = new Map<string, KeyKind>();
const MAX_KNOWN_KEYS = 2_000;

export function keyKind(key: string): KeyKind {
  if (KNOWN_KEYS.has(key)) return KNOWN_KEYS.get(key);
  const kind = COOKIE_KEY.test(key) ? "cookie" : PASSWORD_KEY.test(key) ? "password" : VERSION_KEY.test(key) ? "version" : undefined;
  if (KNOWN_KEYS.size < MAX_KNOWN_KEYS) KNOWN_KEYS.set(key, kind);
  return kind;
}

const CARD = /\b(?:\d[ -]*?){13,16}\b/g;
const BEARER = /\bBearer\s+[A-Za-z0-9+/=._~-]+/gi;
const PEM = /(-----BEGIN[A-Z ]*PRIVATE KEY-----)[\s\S]*?(-----END[A-Z ]*PRIVATE KEY-----)/g;
const URL_AUTH = /((?:\b[a-z][a-z0-9+.-]*:)?\/\/)[^\s/@:]+:[^\s/@]+@/gi;
const IPV4 = /(?<![\w./-])(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}(?!\w|\.\d)/g;
// Candidates only: isIP() decides (a time such as 10:30:00 is none).
const IPV6_CANDIDATE = /(?<![\w:.])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?::\d{1,3}(?:\.\d{1,3}){3})?(?![\w:])/g;
// No rule can match a shorter string (1.1.1.1 is the shortest).
const SHORTEST_MATCH = 7;

/** At least `least` ASCII digits: no card number has fewer than 13. */
function hasDigits(text: string, least: number): boolean {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57 && ++digits >= least) return true;
  }
  return false;
}

function luhnValid(text: string): boolean {
  const digits = text.replace(/[ -]/g, "");
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Counts replacements by rule; a plain object, made per item. */
export type ScrubCounts = Partial<Record<ScrubRule, number>>;

export function count(counts: ScrubCounts, rule: ScrubRule, n = 1): void {
  counts[rule] = (counts[rule] ?? 0) + n;
}

/**
 * The string with Relay's default value rules applied: Luhn-valid card numbers, bearer tokens,
 * PEM private keys and URL credentials become `[Filtered]`; with `ips`, IPv4 and IPv6 addresses
 * become `[ip]`. Counts what it replaced.
 */
export function scrubString(text: string, ips: boolean, counts: ScrubCounts): string {
  if (text.length < SHORTEST_MATCH) return text;
  let out = text;
  const replace = (pattern: RegExp, rule: ScrubRule, by: (match: string, ...groups: string[]) => string) => {
    out = out.replace(pattern, (match: string, ...groups: string[]) => {
      const replaced = by(match, ...groups);
      if (replaced !== match) count(counts, rule);
      return replaced;
    });
  };
  if (out.includes("-----BEGIN")) replace(PEM, "pemkey", (_match, begin, end) => `${begin}${FILTERED}${end}`);
  if (out.includes("@")) replace(URL_AUTH, "urlauth", (_match, scheme) => `${scheme}${FILTERED}@`);
  replace(BEARER, "bearer", () => FILTERED);
  if (hasDigits(out, 13)) replace(CARD, "creditcard", (match) => (luhnValid(match) ? FILTERED : match));
  if (ips) {
    if (out.includes(".")) replace(IPV4, "ip", () => IP_MASK);
    if (out.includes(":")) replace(IPV6_CANDIDATE, "ip", (match) => (isIP(match) === 6 ? IP_MASK : match));
  }
  return out;
}
