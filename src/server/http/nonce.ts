import { createHash, randomBytes } from "node:crypto";

const NONCE_BYTES = 16;
// One call into the CSPRNG per 256 nonces instead of one per page: the call, not the bytes, is the cost.
const POOL_BYTES = NONCE_BYTES * 256;
let pool = Buffer.alloc(0);
let offset = 0;

/** A fresh, unpredictable CSP nonce (128 bits, base64) for one document. */
export function createNonce(): string {
  if (offset + NONCE_BYTES > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const nonce = pool.toString("base64", offset, offset + NONCE_BYTES);
  offset += NONCE_BYTES;
  return nonce;
}

/**
 * The nonce of a page shared caches may keep: the same for every visitor of one URL in one
 * build, so its body (and ETag) stays the same and a 304's CSP still matches the kept copy.
 * Such a page is the same for everybody, so a per-visitor nonce would protect nothing more.
 */
export function sharedPageNonce(buildId: string, url: string): string {
  return createHash("sha256").update(`${buildId}\0${url}`).digest("base64").slice(0, 22);
}
