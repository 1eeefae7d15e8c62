import { envelopeItemTypeToDataCategory } from "@sentry/core";

const NEWLINE = 0x0a;

/** One item of a decoded envelope: its parsed header, its type, and its payload's bytes (a view, not a copy). */
export interface EnvelopeItem {
  header: Record<string, unknown>;
  type: string;
  payload: Buffer;
}

/** A decoded envelope: its header (parsed) and its items, or undefined when it cannot be read. */
export interface ParsedEnvelope {
  header: Record<string, unknown>;
  items: EnvelopeItem[];
}

const asObject = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

function parseLine(raw: Buffer, start: number, end: number): Record<string, unknown> | undefined {
  try {
    return asObject(JSON.parse(raw.toString("utf8", start, end)));
  } catch {
    return undefined;
  }
}

/**
 * Splits a decoded (uncompressed) envelope into its header and items, as Sentry's ingest reads
 * it: an item's payload is `length` bytes when its header gives one, else up to the next
 * newline. Undefined when a header line is no JSON object, an item has no type, or a length
 * runs past the end.
 */
export function parseEnvelopeItems(raw: Buffer): ParsedEnvelope | undefined {
  const firstEnd = raw.indexOf(NEWLINE);
  const header = parseLine(raw, 0, firstEnd === -1 ? raw.length : firstEnd);
  if (!header) return undefined;
  const items: EnvelopeItem[] = [];
  let offset = firstEnd === -1 ? raw.length : firstEnd + 1;
  while (offset < raw.length) {
    const end = raw.indexOf(NEWLINE, offset);
    const lineEnd = end === -1 ? raw.length : end;
    if (raw.toString("utf8", offset, lineEnd).trim() === "") {
      offset = lineEnd + 1;
      continue;
    }
    const itemHeader = parseLine(raw, offset, lineEnd);
    if (!itemHeader || typeof itemHeader.type !== "string") return undefined;
    const start = Math.min(raw.length, lineEnd + 1);
    let payloadEnd: number;
    if (typeof itemHeader.length === "number") {
      if (!Number.isInteger(itemHeader.length) || itemHeader.length < 0 || start + itemHeader.length > raw.length) return undefined;
      payloadEnd = start + itemHeader.length;
    } else {
      const next = raw.indexOf(NEWLINE, start);
      payloadEnd = next === -1 ? raw.length : next;
    }
    items.push({ header: itemHeader, type: itemHeader.type, payload: raw.subarray(start, payloadEnd) });
    offset = payloadEnd + 1;
  }
  return { header, items };
}

/** An item's payload as a JSON object (an event, a transaction), or undefined when it is none. */
export function itemJson(item: EnvelopeItem): Record<string, unknown> | undefined {
  try {
    return asObject(JSON.parse(item.payload.toString("utf8")));
  } catch {
    return undefined;
  }
}

/** Sentry's data category of an item type (`event` → `error`, `replay_recording` → `replay`…). */
export const itemCategory = (type: string): string => envelopeItemTypeToDataCategory(type as never);

// Item types Sentry knows, whose categories a report may name: an unknown type from a client adds no category (nor metric series).
const REPORTED_TYPES = ["event", "transaction", "session", "sessions", "attachment", "replay_event", "replay_recording", "profile", "profile_chunk", "span", "feedback", "check_in", "user_report", "raw_security", "log", "statsd"];
const REPORTED_CATEGORIES = new Set(REPORTED_TYPES.map(itemCategory));

/**
 * Items per data category, as client reports count them: client reports themselves (category
 * `internal`) are never counted, so that a report is never about reports, nor are item types Sentry does not know.
 */
export function itemCounts(items: readonly EnvelopeItem[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { type } of items) {
    const category = itemCategory(type);
    if (REPORTED_CATEGORIES.has(category)) counts.set(category, (counts.get(category) ?? 0) + 1);
  }
  return counts;
}
