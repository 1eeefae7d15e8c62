import type { Middleware } from "koa";

/**
 * Headers for every response; the HTML's CSP (content-security-policy.ts) is set by the document writer, which owns the nonce.
 * Name, value, name, value: the flat form `res.writeHead` takes, so an answer written before Koa
 * (fixed-answers.ts) puts them in its one header block.
 */
export const SECURITY_HEADERS: readonly string[] = [
  "X-Content-Type-Options",
  "nosniff",
  "Referrer-Policy",
  "strict-origin-when-cross-origin",
  "X-Frame-Options",
  "DENY",
  "Cross-Origin-Opener-Policy",
  "same-origin",
];

/**
 * Sets SECURITY_HEADERS on the response itself: they are fixed strings, and Koa's setter
 * normalises every call (this runs on every request).
 */
export function securityHeaders(): Middleware {
  return (ctx, next) => {
    const { res } = ctx;
    for (let i = 0; i < SECURITY_HEADERS.length; i += 2) res.setHeader(SECURITY_HEADERS[i] as string, SECURITY_HEADERS[i + 1] as string);
    return next();
  };
}
