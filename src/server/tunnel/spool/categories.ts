import { envelopeItemTypeToDataCategory } from "@sentry/core";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import type { ContentEncoding } from "../envelope-header";

const NEWLINE = 0x0a;
// Decoding a compressed envelope only to read its item headers; a bomb stops here.
const MAX_DECODED_BYTES = 32 * 1024 * 1024;
const UNKNOWN = ["*"];

function decode(body: Buffer, encoding: ContentEncoding): Buffer {
  const options = { maxOutputLength: MAX_DECODED_BYTES };
  if (encoding === "gzip") return gunzipSync(body, options);
  if (encoding === "deflate") return inflateSync(body, options);
  if (encoding === "br") return brotliDecompressSync(body, options);
  return body;
}

/**
 * The Sentry data categories of an envelope's items (errors, sessions, attachments…), read from
 * the item headers, so that a rate limit on one category holds exactly the envelopes that carry
 * it. `["*"]` when the envelope cannot be read: then any limit holds it.
 */
export function envelopeCategories(body: Buffer, encoding: ContentEncoding): string[] {
  let raw: Buffer;
  try {
    raw = decode(body, encoding);
  } catch {
    return UNKNOWN;
  }
  const categories = new Set<string>();
  let offset = raw.indexOf(NEWLINE) + 1;
  while (offset > 0 && offset < raw.length) {
    const end = raw.indexOf(NEWLINE, offset);
    const line = raw.toString("utf8", offset, end === -1 ? raw.length : end);
    if (line.trim() === "") {
      offset = end + 1;
      continue;
    }
    let item: { type?: unknown; length?: unknown };
    try {
      item = JSON.parse(line);
    } catch {
      return UNKNOWN;
    }
    if (typeof item.type !== "string") return UNKNOWN;
    categories.add(envelopeItemTypeToDataCategory(item.type as never));
    if (end === -1) break;
    // The payload: `length` bytes when given, else up to the next newline.
    const payloadEnd = typeof item.length === "number" ? end + 1 + item.length : raw.indexOf(NEWLINE, end + 1);
    offset = payloadEnd === -1 ? raw.length : payloadEnd + 1;
  }
  return categories.size > 0 ? [...categories] : UNKNOWN;
}
