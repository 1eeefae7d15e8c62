import { envelopeItemTypeToDataCategory } from "@sentry/core";
import type { ContentEncoding } from "../check/envelope-header";
import { PrefixDecoder } from "../check/prefix-decoder";

const NEWLINE = 0x0a;
/**
 * Decoded bytes read from a compressed envelope to find its item headers. Streamed through
 * zlib's thread pool and stopped here, so that an envelope that expands hugely (a bomb) costs
 * a bounded, small amount of work; one whose items lie further is held by any rate limit.
 */
export const MAX_DECODED_CATEGORY_BYTES = 1024 * 1024;
const UNKNOWN = ["*"];

/** The decoded envelope, or undefined when it cannot be decoded or decodes past the bound. */
async function decode(body: Buffer, encoding: ContentEncoding): Promise<Buffer | undefined> {
  if (encoding === "identity") return body;
  const decoder = new PrefixDecoder(encoding, MAX_DECODED_CATEGORY_BYTES);
  try {
    const output = [...(await decoder.write(body)), ...(await decoder.end())];
    const decoded = Buffer.concat(output);
    return decoded.length > MAX_DECODED_CATEGORY_BYTES ? undefined : decoded;
  } catch {
    return undefined;
  } finally {
    decoder.close();
  }
}

/**
 * The Sentry data categories of an envelope's items (errors, sessions, attachments…), read from
 * the item headers, so that a rate limit on one category holds exactly the envelopes that carry
 * it. `["*"]` when the envelope cannot be read: then any limit holds it.
 */
export async function envelopeCategories(body: Buffer, encoding: ContentEncoding): Promise<string[]> {
  const raw = await decode(body, encoding);
  return raw ? itemCategories(raw) : UNKNOWN;
}

function itemCategories(raw: Buffer): string[] {
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
