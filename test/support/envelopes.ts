import { gunzipSync } from "node:zlib";
import type { FakeIngest, RecordedRequest } from "./fake-ingest";

export interface EnvelopeItem {
  type: string;
  payload: Record<string, unknown>;
}

export interface Envelope {
  header: Record<string, unknown>;
  items: EnvelopeItem[];
  request: RecordedRequest;
}

/** Parses a Sentry envelope: a JSON header line, then item headers each followed by a payload. */
export function parseEnvelope(request: RecordedRequest): Envelope {
  const raw = request.headers["content-encoding"] === "gzip" ? gunzipSync(request.body) : request.body;
  let offset = 0;
  const readLine = (): Buffer => {
    const end = raw.indexOf(0x0a, offset);
    const line = raw.subarray(offset, end < 0 ? raw.length : end);
    offset = end < 0 ? raw.length : end + 1;
    return line;
  };
  const header = JSON.parse(readLine().toString("utf8")) as Record<string, unknown>;
  const items: EnvelopeItem[] = [];
  while (offset < raw.length) {
    const itemLine = readLine();
    if (itemLine.length === 0) continue;
    const itemHeader = JSON.parse(itemLine.toString("utf8")) as { type: string; length?: number };
    let payload: Buffer;
    if (typeof itemHeader.length === "number") {
      payload = raw.subarray(offset, offset + itemHeader.length);
      offset += itemHeader.length + 1;
    } else {
      payload = readLine();
    }
    items.push({ type: itemHeader.type, payload: safeJson(payload) });
  }
  return { header, items, request };
}

function safeJson(payload: Buffer): Record<string, unknown> {
  try {
    return JSON.parse(payload.toString("utf8")) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** Every item of one type that the fake ingest has received so far. */
export function receivedItems(ingest: FakeIngest, type: string): Array<EnvelopeItem & { envelope: Envelope }> {
  return ingest.requests
    .filter((request) => request.complete)
    .map(parseEnvelope)
    .flatMap((envelope) => envelope.items.filter((item) => item.type === type).map((item) => ({ ...item, envelope })));
}

/** The first exception value of an error event. */
export function exceptionOf(event: Record<string, unknown>): { type?: string; value?: string; stacktrace?: { frames?: Array<Record<string, unknown>> } } {
  const values = (event.exception as { values?: unknown[] } | undefined)?.values ?? [];
  return (values[values.length - 1] ?? {}) as ReturnType<typeof exceptionOf>;
}

export const eventsWithMessage = (ingest: FakeIngest, message: string) =>
  receivedItems(ingest, "event").filter((item) => exceptionOf(item.payload).value === message);

export const transactionsNamed = (ingest: FakeIngest, name: string) =>
  receivedItems(ingest, "transaction").filter((item) => item.payload.transaction === name);
