import type { ContentEncoding } from "../check/envelope-header";
import { decodeEnvelope } from "../envelope/decode";
import { itemCounts, itemJson, parseEnvelopeItems } from "../envelope/items";
import { filterEvent, type TunnelFilter } from ".";

// The items inbound filters read, as Relay's do: errors and transactions.
const FILTERED_TYPES = new Set(["event", "transaction"]);

/** An envelope a filter dropped: which filter, its event id for the answer, and its items per category for the client report. */
export interface Filtered {
  filter: TunnelFilter;
  eventId: string | undefined;
  counts: Map<string, number>;
}

/**
 * Whether one of `filters` drops this envelope (the whole body as sent): it does when it drops
 * any event or transaction in it, and then the whole envelope (the event's attachments with
 * it) stays here. An envelope that cannot be decoded within `maxDecodedBytes` or read passes.
 */
export async function filterEnvelope(
  filters: readonly TunnelFilter[],
  body: Buffer,
  encoding: ContentEncoding,
  maxDecodedBytes: number,
): Promise<Filtered | undefined> {
  const raw = await decodeEnvelope(body, encoding, maxDecodedBytes);
  const parsed = raw && parseEnvelopeItems(raw);
  if (!parsed) return undefined;
  for (const item of parsed.items) {
    if (!FILTERED_TYPES.has(item.type)) continue;
    const event = itemJson(item);
    const filter = event && filterEvent(filters, event);
    if (filter) {
      const eventId = typeof parsed.header.event_id === "string" ? parsed.header.event_id : undefined;
      return { filter, eventId, counts: itemCounts(parsed.items) };
    }
  }
  return undefined;
}
