import { MalformedRequestError } from "../contract/errors";

const NEWLINE = 0x0a;
/** Longest header line (the envelope's or an item's) read, as the tunnel reads the envelope's first line. */
export const MAX_LINE_BYTES = 64 * 1024;

/** An item's header as sent, its raw line kept so that an untouched item goes out byte for byte. */
export interface ItemStart {
  header: Record<string, unknown>;
  type: string;
  /** The header line's bytes, without its newline. */
  line: Buffer;
}

/** What a decoded envelope is made of, in the order it arrives. */
export type EnvelopePart =
  | { kind: "header"; line: Buffer }
  | { kind: "item"; item: ItemStart }
  /** A piece of the current item's payload: a view of the chunk pushed, not a copy. */
  | { kind: "payload"; chunk: Buffer }
  | { kind: "end" };

type State = "header" | "item" | "sized" | "line";

function parseItemHeader(line: Buffer): ItemStart {
  let header: unknown;
  try {
    header = JSON.parse(line.toString("utf8"));
  } catch {
    throw new MalformedRequestError("envelope item header is not JSON");
  }
  if (typeof header !== "object" || header === null || Array.isArray(header)) {
    throw new MalformedRequestError("envelope item header is not a JSON object");
  }
  const { type, length } = header as { type?: unknown; length?: unknown };
  if (typeof type !== "string") throw new MalformedRequestError("envelope item has no type");
  if (length !== undefined && (!Number.isInteger(length) || (length as number) < 0)) {
    throw new MalformedRequestError("envelope item length is not a whole number");
  }
  return { header: header as Record<string, unknown>, type, line };
}

/**
 * Reads a decoded envelope as it streams, as Sentry's ingest reads it: the header line, then
 * each item's header line and payload (`length` bytes when the header gives one, else up to
 * the next newline). Only header lines are held (up to 64 KiB each); payloads pass as views of
 * the chunks pushed, so memory is bounded by a chunk, whatever the item's size.
 */
export class EnvelopeItemStream {
  #state: State = "header";
  #line: Buffer[] = [];
  #lineBytes = 0;
  /** Payload bytes left of a sized item. */
  #left = 0;
  /** A sized payload's separating newline may follow. */
  #skipNewline = false;

  push(chunk: Buffer): EnvelopePart[] {
    const parts: EnvelopePart[] = [];
    let offset = 0;
    while (offset < chunk.length) offset = this.#step(chunk, offset, parts);
    return parts;
  }

  /** The body ended: what the last item still needed is ended; a sized payload cut short is malformed. */
  end(): EnvelopePart[] {
    const parts: EnvelopePart[] = [];
    if (this.#state !== "line" && this.#lineBytes > 0) this.#lineDone(parts);
    if (this.#state === "sized") throw new MalformedRequestError("envelope item shorter than its length");
    if (this.#state === "line") parts.push({ kind: "end" });
    this.#state = "item";
    return parts;
  }

  #step(chunk: Buffer, offset: number, parts: EnvelopePart[]): number {
    if (this.#state === "sized") {
      const take = Math.min(this.#left, chunk.length - offset);
      if (take > 0) parts.push({ kind: "payload", chunk: chunk.subarray(offset, offset + take) });
      this.#left -= take;
      if (this.#left > 0) return offset + take;
      parts.push({ kind: "end" });
      this.#state = "item";
      this.#skipNewline = true;
      return offset + take;
    }
    const newline = chunk.indexOf(NEWLINE, offset);
    const end = newline === -1 ? chunk.length : newline;
    if (this.#state === "line") {
      if (end > offset) parts.push({ kind: "payload", chunk: chunk.subarray(offset, end) });
      if (newline !== -1) {
        parts.push({ kind: "end" });
        this.#state = "item";
      }
      return newline === -1 ? end : newline + 1;
    }
    if (this.#skipNewline) {
      this.#skipNewline = false;
      if (newline === offset) return offset + 1;
    }
    this.#addLine(chunk.subarray(offset, end));
    if (newline === -1) return end;
    this.#lineDone(parts);
    return newline + 1;
  }

  #addLine(piece: Buffer): void {
    this.#lineBytes += piece.length;
    if (this.#lineBytes > MAX_LINE_BYTES) throw new MalformedRequestError("envelope header line longer than 64 KiB");
    if (piece.length > 0) this.#line.push(piece);
  }

  /** A complete header line: the envelope's, or an item's (blank lines between items are skipped). */
  #lineDone(parts: EnvelopePart[]): void {
    const line = Buffer.concat(this.#line, this.#lineBytes);
    this.#line = [];
    this.#lineBytes = 0;
    if (this.#state === "header") {
      parts.push({ kind: "header", line });
      this.#state = "item";
      return;
    }
    if (line.toString("latin1").trim() === "") return;
    const item = parseItemHeader(line);
    parts.push({ kind: "item", item });
    const length = item.header.length as number | undefined;
    if (length === undefined) {
      this.#state = "line";
    } else if (length === 0) {
      parts.push({ kind: "end" });
      this.#skipNewline = true;
    } else {
      this.#state = "sized";
      this.#left = length;
    }
  }
}

/** An item header line giving `length`, the other fields as they were. */
export function itemHeaderLine(header: Record<string, unknown>, length: number): Buffer {
  return Buffer.from(JSON.stringify({ ...header, length }));
}
