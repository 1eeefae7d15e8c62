import { randomBytes } from "node:crypto";

const NONCE_BYTES = 16;
/** The length of every nonce createNonce gives (16 bytes in base64): a kept page's nonce slots are this wide. */
export const NONCE_LENGTH = 24;
// One call into the CSPRNG per 256 nonces instead of one per page: the call, not the bytes, is the cost.
const POOL_BYTES = NONCE_BYTES * 256;
let pool = Buffer.alloc(0);
let offset = 0;

/**
 * A fresh, unpredictable CSP nonce (128 bits, base64) for one document; also the placeholder a
 * kept page is rendered with, whose offsets are recorded before anybody is sent it.
 */
export function createNonce(): string {
  if (offset + NONCE_BYTES > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const nonce = pool.toString("base64", offset, offset + NONCE_BYTES);
  offset += NONCE_BYTES;
  return nonce;
}
