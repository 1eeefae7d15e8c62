import { createHash } from "node:crypto";
import type { Context } from "koa";
import { contentSecurityPolicy } from "../http/content-security-policy";
import { createNonce } from "../render/nonce";

/**
 * A rendered answer kept to be served again: a page's whole HTML document, or the JSON data
 * answer a client navigation fetches. Plain JSON (strings and numbers only), so it can go to
 * Redis or into a build as it is.
 *
 * API (shared by the page cache and prerendering):
 * - `captureStored(ctx, kind)`: call after the existing writers (answerPage for a document of a
 *   page whose Cache-Control is `public`, answerData for its data answer) have put a whole body on
 *   `ctx`; returns the StoredAnswer, or undefined when the answer must not be kept (not a 200,
 *   a cookie set, a streamed body such as deferred values, no nonce found in a document's CSP).
 * - `writeStored(ctx, stored)`: answers the request with a stored answer: a fresh CSP nonce for
 *   this response (in the header and in every inline script), a weak ETag and 304, HEAD
 *   without a body, and the stored headers. The security headers that every response carries
 *   come from the app's securityHeaders() middleware, as for any page.
 */
export interface StoredAnswer {
  kind: "document" | "data";
  status: number;
  /** The response headers worth keeping (lower-case names), without the per-response ones (CSP, ETag, length, cookies). */
  headers: Record<string, string>;
  /** The HTML or JSON, as written for the visitor who caused the render. */
  body: string;
  /** The nonce the body's inline scripts carry; replaced by a fresh one on every write. Empty for data answers. */
  nonce: string;
  /** A weak validator over the stored body: every response of it means the same, byte for byte but for the nonce. */
  etag: string;
  /** When it was rendered (ms since the epoch). */
  storedAt: number;
}

/** Set again per response (or by the security middleware), so never kept. */
const NOT_KEPT = new Set([
  "content-security-policy",
  "etag",
  "content-length",
  "set-cookie",
  "date",
  "connection",
  "x-content-type-options",
  "referrer-policy",
  "x-frame-options",
  "cross-origin-opener-policy",
]);

const NONCE_IN_CSP = /'nonce-([^']+)'/;

/** The whole body Koa would send, as text; undefined for a stream (a deferred page, a piped render). */
function bodyText(ctx: Context): string | undefined {
  if (!ctx.respond && ctx.respond !== undefined) return undefined;
  const { body } = ctx;
  if (typeof body === "string") return body;
  if (Buffer.isBuffer(body)) return body.toString("utf8");
  return undefined;
}

/** The rendered answer on `ctx`, to be kept; undefined when it must not be (see the module comment). */
export function captureStored(ctx: Context, kind: StoredAnswer["kind"]): StoredAnswer | undefined {
  if (ctx.status !== 200 || ctx.response.get("Set-Cookie")) return undefined;
  const body = bodyText(ctx);
  if (body === undefined) return undefined;
  let nonce = "";
  if (kind === "document") {
    const found = NONCE_IN_CSP.exec(ctx.response.get("Content-Security-Policy"));
    if (!found?.[1]) return undefined;
    nonce = found[1];
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.response.headers)) {
    if (value === undefined || NOT_KEPT.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  const etag = `W/"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  return { kind, status: 200, headers, body, nonce, etag, storedAt: Date.now() };
}

// Each stored answer's body as bytes, cut where the nonce goes: made on its first write, so a hit
// costs one copy of the bytes rather than a search of the text and its encoding.
const piecesOf = new WeakMap<StoredAnswer, Buffer[]>();

function bodyPieces(stored: StoredAnswer): Buffer[] {
  let pieces = piecesOf.get(stored);
  if (!pieces) {
    // Only the attribute as React and the deferred scripts write it: page text cannot contain it unescaped.
    const texts = stored.kind === "document" ? stored.body.split(`nonce="${stored.nonce}"`) : [stored.body];
    pieces = texts.map((text) => Buffer.from(text, "utf8"));
    piecesOf.set(stored, pieces);
  }
  return pieces;
}

/** The stored body with a nonce nobody else was sent in each inline script's attribute. */
function bodyWithNonce(stored: StoredAnswer, fresh: string): Buffer {
  const pieces = bodyPieces(stored);
  if (pieces.length === 1) return pieces[0] as Buffer;
  const attribute = Buffer.from(`nonce="${fresh}"`);
  const parts: Buffer[] = [];
  for (const [index, piece] of pieces.entries()) {
    if (index > 0) parts.push(attribute);
    parts.push(piece);
  }
  return Buffer.concat(parts);
}

/** Answers the request with a stored answer (see the module comment); `extra` headers (Age, a cache's) are added. */
export function writeStored(ctx: Context, stored: StoredAnswer, extra?: Record<string, string>): void {
  const { res } = ctx;
  ctx.status = stored.status;
  for (const [name, value] of Object.entries(stored.headers)) res.setHeader(name, value);
  if (extra) for (const [name, value] of Object.entries(extra)) res.setHeader(name, value);
  res.setHeader("ETag", stored.etag);
  if (ctx.fresh) {
    // No CSP: a 304 updates the headers of the copy the browser keeps, whose scripts carry its own nonce.
    ctx.status = 304;
    ctx.body = null;
    return;
  }
  let nonce = "";
  if (stored.kind === "document") {
    nonce = createNonce();
    res.setHeader("Content-Security-Policy", contentSecurityPolicy(nonce));
  }
  // Koa sends no body for HEAD but keeps the length a GET would have.
  ctx.body = bodyWithNonce(stored, nonce);
}
