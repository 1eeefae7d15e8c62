import type { Middleware } from "koa";

/**
 * Headers for every response; the HTML's CSP is set by the renderer, which owns the nonce.
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

// Everything but the nonce is fixed, so it is joined once.
const CSP_BEFORE_NONCE = "default-src 'self'; script-src 'nonce-";
const CSP_AFTER_NONCE = [
  "' 'strict-dynamic'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

export function contentSecurityPolicy(nonce: string): string {
  return CSP_BEFORE_NONCE + nonce + CSP_AFTER_NONCE;
}
