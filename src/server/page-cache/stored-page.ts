import { createHash } from "node:crypto";
import type { Context } from "koa";
import { contentSecurityPolicy } from "../http/content-security-policy";
import { createNonce } from "../http/nonce";

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
 *   The body goes out from a copy of the stored bytes with the nonce written in, which takes
 *   another response's nonce only once its own response has finished.
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

/** A stored body as bytes with a slot of the fresh nonce's length wherever its nonce goes, and copies free to fill. */
interface BodyTemplate {
  bytes: Buffer;
  /** Byte offsets of the nonce slots. */
  slots: number[];
  slotLength: number;
  free: Buffer[];
}

// Made on an answer's first write, so a hit costs writing the nonce into a copy of the bytes,
// not a search of the text, its encoding, or a new buffer (which, for a big page, feeds the GC).
const templates = new WeakMap<StoredAnswer, BodyTemplate>();
// Copies kept per answer between responses: a write to a reading client is done before the next
// request is handled, so one is used under load; a slow reader's copy is made anew and kept after.
const FREE_COPIES = 2;
const ATTRIBUTE = 'nonce="';

function templateOf(stored: StoredAnswer, slotLength: number): BodyTemplate {
  const known = templates.get(stored);
  if (known?.slotLength === slotLength) return known;
  // Only the attribute as React and the deferred scripts write it: page text cannot contain it unescaped.
  const texts = stored.kind === "document" ? stored.body.split(`${ATTRIBUTE}${stored.nonce}"`) : [stored.body];
  const slot = Buffer.from(`${ATTRIBUTE}${" ".repeat(slotLength)}"`);
  const parts: Buffer[] = [];
  const slots: number[] = [];
  let length = 0;
  for (const [index, text] of texts.entries()) {
    if (index > 0) {
      slots.push(length + ATTRIBUTE.length);
      parts.push(slot);
      length += slot.length;
    }
    const piece = Buffer.from(text, "utf8");
    parts.push(piece);
    length += piece.length;
  }
  const bytes = Buffer.concat(parts, length);
  // The template is the first copy (only its slots ever change): an answer written once, as a
  // Redis hit is, costs no copy more than the template.
  const template = { bytes, slots, slotLength, free: slots.length > 0 ? [bytes] : [] };
  templates.set(stored, template);
  return template;
}

/** The stored body with a nonce nobody else was sent in each inline script's attribute. */
function bodyWithNonce(ctx: Context, stored: StoredAnswer, fresh: string): Buffer {
  const template = templateOf(stored, fresh.length);
  if (template.slots.length === 0) return template.bytes;
  const copy = template.free.pop() ?? Buffer.from(template.bytes);
  for (const slot of template.slots) copy.write(fresh, slot, "latin1");
  // By 'finish' the bytes are the kernel's: only then may the copy take another response's nonce.
  ctx.res.once("finish", () => {
    if (template.free.length < FREE_COPIES) template.free.push(copy);
  });
  return copy;
}

/** Answers the request with a stored answer (see the module comment); `extra` headers (Age, a cache's) are added. */
export function writeStored(ctx: Context, stored: StoredAnswer, extra?: Record<string, string>): void {
  const { res } = ctx;
  ctx.status = stored.status;
  for (const [name, value] of Object.entries(stored.headers)) res.setHeader(name, value);
  if (extra) for (const [name, value] of Object.entries(extra)) res.setHeader(name, value);
  res.setHeader("ETag", stored.etag);
  // Only a conditional request can be fresh: the others skip Koa's copy of every header.
  const conditional = ctx.req.headers["if-none-match"] !== undefined || ctx.req.headers["if-modified-since"] !== undefined;
  if (conditional && ctx.fresh) {
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
  ctx.body = bodyWithNonce(ctx, stored, nonce);
}
