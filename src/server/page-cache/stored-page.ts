import { hash } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { Context } from "koa";
import { contentSecurityPolicy } from "../http/content-security-policy";
import { createNonce, NONCE_LENGTH } from "../http/nonce";
import { NONCE_ATTRIBUTE as ATTRIBUTE, joinWithNonce, nonceByteOffsets, textAroundNonces } from "./stored-text";

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
 *   A document must have been rendered with a nonce nobody was sent (createNonce()): where it
 *   occurs is where the renderer wrote it, and only those offsets are rewritten later, so a
 *   `nonce="…"` in page text is left as it is (docs/decisions/0074-stored-pages-fresh-nonce.md).
 * - `writeStored(ctx, stored, age, cacheStatus)`: answers the request with a stored answer: a fresh
 *   CSP nonce for this response (in the header and at each of the renderer's nonce offsets), a
 *   weak ETag and 304, HEAD without a body, the stored headers, `Age` and `Cache-Status`. The security headers that every response carries
 *   come from the app's securityHeaders() middleware, as for any page.
 *   A body of up to TEXT_WRITE_MAX characters goes out as text with the nonce written in: nothing
 *   outside V8's heap, so kept pages leave no malloc'd memory behind (decision 0103). A larger one
 *   from a copy of its bytes with the nonce written in, which takes another response's nonce
 *   only once its own response has finished (decision 0095).
 */
export interface StoredAnswer {
  kind: "document" | "data";
  status: number;
  /** The response headers worth keeping (lower-case names), without the per-response ones (CSP, ETag, length, cookies). */
  headers: Record<string, string>;
  /** The HTML or JSON, as written for the visitor who caused the render. */
  body: string;
  /**
   * UTF-8 byte offsets of the nonce values the renderer wrote (each NONCE_LENGTH bytes, inside
   * `nonce="…"`); a fresh nonce is written at each on every write. Absent for data answers.
   */
  nonceSlots?: number[];
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
  let nonceSlots: number[] | undefined;
  if (kind === "document") {
    const nonce = NONCE_IN_CSP.exec(ctx.response.get("Content-Security-Policy"))?.[1];
    if (nonce?.length !== NONCE_LENGTH) return undefined;
    nonceSlots = nonceByteOffsets(body, nonce);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.response.headers)) {
    if (value === undefined || NOT_KEPT.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  // One-shot: no Hash object whose native state waits for the GC.
  const etag = `W/"${hash("sha256", body, "base64url").slice(0, 27)}"`;
  return { kind, status: 200, headers, body, nonceSlots, etag, storedAt: Date.now() };
}

/** A stored body as bytes, the offsets its nonces go to, and copies free to fill. */
interface BodyTemplate {
  bytes: Buffer;
  /** Byte offsets of the nonce slots, each NONCE_LENGTH bytes. */
  slots: number[];
  free: Buffer[];
}

/**
 * Up to this many characters, a body goes out as text: Node writes it through one stack buffer,
 * as fast as bytes, and kept bytes (malloc'd, freed with their entry) fragmented malloc's arena
 * under a flood of small pages. Past it, encoding per response costs far more than a copy.
 */
export const TEXT_WRITE_MAX = 16 * 1024;

// Made on a large answer's first write, so a hit costs writing the nonce into a copy of the
// bytes, not its encoding or a new buffer (which, for a big page, feeds the GC).
const templates = new WeakMap<StoredAnswer, BodyTemplate>();
// A small document's text around its nonces, worked out on its first write.
const textPieces = new WeakMap<StoredAnswer, string[]>();
// Copies kept per answer between responses: a write to a reading client is done before the next
// request is handled, so one is used under load; a slow reader's copy is made anew and kept after.
const FREE_COPIES = 2;
const QUOTE = 0x22;

/** Whether `slot` is the value of a whole `nonce="…"` attribute in `bytes`: an entry from elsewhere (Redis, a build) is checked once. */
function isNonceSlot(bytes: Buffer, slot: number): boolean {
  return (
    Number.isInteger(slot) &&
    slot >= ATTRIBUTE.length &&
    slot + NONCE_LENGTH < bytes.length &&
    bytes.toString("latin1", slot - ATTRIBUTE.length, slot) === ATTRIBUTE &&
    bytes[slot + NONCE_LENGTH] === QUOTE
  );
}

/** Bytes of their own, never a slice of Node's shared 8 KiB pool, which one kept small page would hold whole. */
function unpooled(source: string | Buffer): Buffer {
  const bytes = Buffer.allocUnsafeSlow(typeof source === "string" ? Buffer.byteLength(source) : source.length);
  if (typeof source === "string") bytes.write(source, "utf8");
  else source.copy(bytes);
  return bytes;
}

function templateOf(stored: StoredAnswer): BodyTemplate {
  const known = templates.get(stored);
  if (known) return known;
  const bytes = unpooled(stored.body);
  // A slot that is not where a nonce attribute is keeps its bytes: its script is refused by the CSP, never let through.
  const slots = stored.kind === "document" ? (stored.nonceSlots ?? []).filter((slot) => isNonceSlot(bytes, slot)) : [];
  // The template is the first copy (only its slots ever change): an answer written once, as a
  // Redis hit is, costs no copy more than the template.
  const template = { bytes, slots, free: slots.length > 0 ? [bytes] : [] };
  templates.set(stored, template);
  return template;
}

/** The stored body with a nonce nobody else was sent at each of the renderer's nonce offsets. */
function bodyWithNonce(res: ServerResponse, stored: StoredAnswer, fresh: string): Buffer | string {
  if (stored.body.length <= TEXT_WRITE_MAX) {
    if (stored.kind !== "document") return stored.body;
    let pieces = textPieces.get(stored);
    if (!pieces) {
      pieces = textAroundNonces(stored.body, stored.nonceSlots ?? []);
      textPieces.set(stored, pieces);
    }
    return joinWithNonce(pieces, fresh);
  }
  const template = templateOf(stored);
  if (template.slots.length === 0) return template.bytes;
  const copy = template.free.pop() ?? unpooled(template.bytes);
  for (const slot of template.slots) copy.write(fresh, slot, NONCE_LENGTH, "latin1");
  // By 'finish' the bytes are the kernel's: only then may the copy take another response's nonce.
  res.once("finish", () => {
    if (template.free.length < FREE_COPIES) template.free.push(copy);
  });
  return copy;
}

/**
 * Answers the request with a stored answer (see the module comment). `age` is the `Age` header
 * (a kept page's), `cacheStatus` the `Cache-Status` one (RFC 9211): constant strings on a hit.
 */
export function writeStored(ctx: Context, stored: StoredAnswer, age: string | undefined, cacheStatus: string): void {
  const { res } = ctx;
  ctx.status = stored.status;
  for (const [name, value] of Object.entries(stored.headers)) res.setHeader(name, value);
  if (age !== undefined) res.setHeader("Age", age);
  res.setHeader("Cache-Status", cacheStatus);
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
  ctx.body = bodyWithNonce(res, stored, nonce);
}

/**
 * A stored answer written as writeStored writes it after the security headers, for a GET or HEAD
 * that is not conditional, without Koa: its header block (the security headers first) is made
 * once, and a document's CSP is its one per-response value. The length is fixed: a nonce
 * replaces printable ASCII of its own length (stored-text.ts).
 */
export function fixedStoredAnswer(
  stored: StoredAnswer,
  cacheStatus: string,
  securityHeaders: readonly string[],
): ((res: ServerResponse, head: boolean) => void) | undefined {
  // Koa would add a Content-Type, or leave out the length: such an answer stays Koa's.
  if (stored.headers["content-type"] === undefined || stored.headers["transfer-encoding"] !== undefined) return undefined;
  const document = stored.kind === "document";
  // Set in writeStored's order, a later name replacing an earlier one in its place, as setHeader does.
  const block = new Map<string, [string, string]>();
  const set = (name: string, value: string) => block.set(name.toLowerCase(), [name, value]);
  for (let i = 0; i < securityHeaders.length; i += 2) set(securityHeaders[i] as string, securityHeaders[i + 1] as string);
  for (const [name, value] of Object.entries(stored.headers)) set(name, value);
  set("Cache-Status", cacheStatus);
  set("ETag", stored.etag);
  if (document) set("Content-Security-Policy", "");
  set("Content-Length", String(Buffer.byteLength(stored.body)));
  const headers = [...block.values()].flat();
  const cspAt = headers.indexOf("Content-Security-Policy") + 1;
  return (res, head) => {
    let nonce = "";
    if (document) {
      nonce = createNonce();
      // writeHead turns the block into header text at once, so one array serves every response.
      headers[cspAt] = contentSecurityPolicy(nonce);
    }
    res.writeHead(stored.status, headers);
    if (head) res.end();
    else res.end(bodyWithNonce(res, stored, nonce));
  };
}
