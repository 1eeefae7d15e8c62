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

/** The HTML document's Content-Security-Policy: scripts run only with this response's nonce. */
export function contentSecurityPolicy(nonce: string): string {
  return CSP_BEFORE_NONCE + nonce + CSP_AFTER_NONCE;
}
