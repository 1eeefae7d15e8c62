import type { ContentEncoding } from "../check/envelope-header";
import { decodeEnvelope } from "../envelope/decode";
import { itemCounts, parseEnvelopeItems } from "../envelope/items";

/**
 * Decoded bytes read from a compressed envelope to count its items for a report; one that decodes
 * further (a bomb, or a huge replay) goes unreported rather than costing more.
 */
export const MAX_COUNTED_DECODED_BYTES = 1024 * 1024;

/** An envelope's DSN (as its header names it) and items per data category; undefined when it cannot be read. */
export interface CountedItems {
  dsn: string;
  counts: Map<string, number>;
}

/** What a client report says of this envelope (the whole body, as the client sent it). */
export async function countedItems(body: Buffer, encoding: ContentEncoding): Promise<CountedItems | undefined> {
  const raw = await decodeEnvelope(body, encoding, MAX_COUNTED_DECODED_BYTES);
  const parsed = raw && parseEnvelopeItems(raw);
  if (!parsed || typeof parsed.header.dsn !== "string") return undefined;
  return { dsn: parsed.header.dsn, counts: itemCounts(parsed.items) };
}
