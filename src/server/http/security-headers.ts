import type { Middleware } from "koa";

/**
 * Headers for every response; the HTML's CSP (content-security-policy.ts) is set by the document writer, which owns the nonce.
 * Set on the response itself: they are fixed strings, and Koa's setter normalises every call
 * (this runs on every request).
 */
export function securityHeaders(): Middleware {
  return (ctx, next) => {
    const { res } = ctx;
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    return next();
  };
}
