import { MalformedRequestError } from "../contract/errors";
import { type CompressedEncoding, PrefixDecoder } from "./prefix-decoder";

/** Longest envelope header line accepted (decoded bytes, newline excluded). */
export const MAX_HEADER_BYTES = 64 * 1024;
// Compressed input needed to reveal the header; gzip's optional header fields can add a little.
const MAX_COMPRESSED_PEEK_BYTES = 2 * MAX_HEADER_BYTES;
const NEWLINE = 0x0a;

export type ContentEncoding = "identity" | CompressedEncoding;

/** undefined means unsupported: the header could not be read, so the envelope cannot be checked. */
export function parseContentEncoding(value: string | undefined): ContentEncoding | undefined {
  const encoding = (value ?? "").trim().toLowerCase();
  if (encoding === "" || encoding === "identity") return "identity";
  if (encoding === "gzip" || encoding === "x-gzip") return "gzip";
  if (encoding === "deflate" || encoding === "br") return encoding;
  return undefined;
}

export interface PeekedHeader {
  /** The decoded first line, without its newline. */
  line: Buffer;
  /** Raw body chunks read so far; they must be forwarded first, as they are. */
  consumed: Buffer[];
}

/** Collects decoded bytes until the first newline; linear in the input however it is chunked. */
class LineScanner {
  #parts: Buffer[] = [];
  #length = 0;

  /** Returns the line once complete; throws once the line is longer than allowed. */
  push(chunk: Buffer): Buffer | undefined {
    const newline = chunk.indexOf(NEWLINE);
    const part = newline === -1 ? chunk : chunk.subarray(0, newline);
    this.#parts.push(part);
    this.#length += part.length;
    if (this.#length > MAX_HEADER_BYTES) {
      throw new MalformedRequestError("envelope header line longer than 64 KiB");
    }
    return newline === -1 ? undefined : this.rest();
  }

  /** At the end of the body the header is all there is (an envelope without items). */
  rest(): Buffer {
    // A copy even from one chunk: a view would keep that 64 KiB socket buffer alive for as long
    // as the line is referenced, through a whole large upload (docs/decisions/0010-header-line-copies.md).
    return Buffer.concat(this.#parts, this.#length);
  }
}

/** Reads raw chunks until the envelope's first line is known, decoding a compressed prefix if needed. */
export async function peekHeaderLine(
  read: () => Promise<Buffer | undefined>,
  encoding: ContentEncoding,
): Promise<PeekedHeader> {
  const consumed: Buffer[] = [];
  const scanner = new LineScanner();
  const decoder = encoding === "identity" ? undefined : new PrefixDecoder(encoding, MAX_HEADER_BYTES + 1);
  const scan = (chunks: Buffer[]) => {
    for (const chunk of chunks) {
      const line = scanner.push(chunk);
      if (line) return line;
    }
    return undefined;
  };
  let raw = 0;
  try {
    for (;;) {
      const chunk = await read();
      if (chunk === undefined) {
        const line = scan(decoder ? await decoder.end() : []) ?? scanner.rest();
        if (line.length === 0) throw new MalformedRequestError("empty envelope");
        return { line, consumed };
      }
      consumed.push(chunk);
      raw += chunk.length;
      const line = scan(decoder ? await decoder.write(chunk) : [chunk]);
      if (line) return { line, consumed };
      if (decoder && raw > MAX_COMPRESSED_PEEK_BYTES) {
        throw new MalformedRequestError("envelope header line longer than 64 KiB");
      }
    }
  } finally {
    decoder?.close();
  }
}

/** The envelope header's `dsn`; everything else in it is left to the ingest. */
export function envelopeDsn(line: Buffer): string {
  let header: unknown;
  try {
    header = JSON.parse(line.toString("utf8"));
  } catch {
    throw new MalformedRequestError("envelope header is not JSON");
  }
  if (typeof header !== "object" || header === null || Array.isArray(header)) {
    throw new MalformedRequestError("envelope header is not a JSON object");
  }
  const dsn = (header as { dsn?: unknown }).dsn;
  if (typeof dsn !== "string" || dsn === "") throw new MalformedRequestError("envelope header has no dsn");
  return dsn;
}
