import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import type { RecordedRequest } from "../../../support/fake-ingest";
import type { DropTarget, ScrubDrop } from "#src/server/tunnel/scrub";
import { countingObserver } from "../harness";

export type Encoding = "identity" | "gzip" | "deflate" | "br";

export const ENCODINGS: Encoding[] = ["identity", "gzip", "deflate", "br"];

export function encode(body: Buffer, encoding: Encoding): Buffer {
  if (encoding === "gzip") return gzipSync(body);
  if (encoding === "deflate") return deflateSync(body);
  if (encoding === "br") return brotliCompressSync(body);
  return body;
}

export const encodingHeaders = (encoding: Encoding): Record<string, string> =>
  encoding === "identity" ? {} : { "content-encoding": encoding };

/** An item: its header (`length` added unless `sized` is false) and payload. */
export function item(header: Record<string, unknown>, payload: Buffer | string | object, sized = true): Buffer {
  const bytes = Buffer.isBuffer(payload) ? payload : Buffer.from(typeof payload === "string" ? payload : JSON.stringify(payload));
  const line = JSON.stringify(sized ? { ...header, length: bytes.length } : header);
  return Buffer.concat([Buffer.from(`${line}\n`), bytes, Buffer.from("\n")]);
}

export function envelopeOf(dsn: string, items: Buffer[]): Buffer {
  return Buffer.concat([Buffer.from(`${JSON.stringify({ event_id: "9ec79c33ec9942ab8353589fcb2e04dc", dsn })}\n`), ...items]);
}

export interface ReadItem {
  header: Record<string, unknown>;
  payload: Buffer;
}

/**
 * Reads what the ingest received strictly, as Sentry's ingest would: every item with a
 * `length` must have exactly that many bytes followed by a newline or the end.
 */
export function readEnvelope(request: RecordedRequest): { header: Record<string, unknown>; items: ReadItem[] } {
  const raw = request.body;
  let offset = raw.indexOf(0x0a) + 1;
  const header = JSON.parse(raw.subarray(0, offset - 1).toString()) as Record<string, unknown>;
  const items: ReadItem[] = [];
  while (offset < raw.length) {
    const end = raw.indexOf(0x0a, offset);
    const itemHeader = JSON.parse(raw.subarray(offset, end).toString()) as Record<string, unknown>;
    const start = end + 1;
    const length = typeof itemHeader.length === "number" ? itemHeader.length : raw.indexOf(0x0a, start) - start;
    const payload = raw.subarray(start, start + length);
    if (payload.length !== length) throw new Error("item shorter than its length");
    const after = raw[start + length];
    if (after !== undefined && after !== 0x0a) throw new Error("item longer than its length");
    items.push({ header: itemHeader, payload });
    offset = start + length + 1;
  }
  return { header, items };
}

/** The harness's counting observer plus the scrubber's counts by rule, and the drops it reported. */
export function scrubObserver() {
  const { observer, counts } = countingObserver();
  const scrubbed: Record<string, number> = {};
  const drops: Array<{ target: DropTarget; drop: ScrubDrop }> = [];
  return {
    options: {
      observer: {
        ...observer,
        scrubbed(rule: string, n: number) {
          scrubbed[rule] = (scrubbed[rule] ?? 0) + n;
        },
      },
      onScrubDrop: (target: DropTarget, drop: ScrubDrop) => void drops.push({ target, drop }),
    },
    counts,
    scrubbed,
    drops,
  };
}
