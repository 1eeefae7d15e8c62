import type { Middleware } from "koa";

/** Headers for every response; the HTML's CSP is set by the renderer, which owns the nonce. */
export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.set("Referrer-Policy", "strict-origin-when-cross-origin");
    ctx.set("X-Frame-Options", "DENY");
    ctx.set("Cross-Origin-Opener-Policy", "same-origin");
    await next();
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
