import { pipeline, Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { ContentEncoding } from "../check/envelope-header";
import { MalformedRequestError } from "../contract/errors";

/** The decoded envelope grew past the bound given (a decompression bomb, or more than Sentry takes). */
export class DecodedTooLargeError extends Error {
  override name = "DecodedTooLargeError";
}

/** Errors of the raw source (the client's upload), passed on as they are. */
export type SourceError = (error: unknown) => boolean;

/**
 * A body's decoded bytes as they stream, for a `Content-Encoding` of gzip, deflate or br
 * (decoded in zlib's thread pool, with backpressure: memory is a few chunks). A body that does
 * not match its encoding is a MalformedRequestError; decoding past `maxDecodedBytes` stops with
 * DecodedTooLargeError; an error of the source is rethrown as it was.
 */
export async function* decodedChunks(
  raw: AsyncIterable<Buffer>,
  encoding: ContentEncoding,
  maxDecodedBytes: number,
  isSourceError: SourceError,
): AsyncGenerator<Buffer> {
  if (encoding === "identity") return yield* raw;
  const zlib = encoding === "gzip" ? createGunzip() : encoding === "deflate" ? createInflate() : createBrotliDecompress();
  const source = Readable.from(raw, { objectMode: false });
  pipeline(source, zlib, () => {});
  let decoded = 0;
  try {
    for await (const chunk of zlib as AsyncIterable<Buffer>) {
      decoded += chunk.length;
      if (decoded > maxDecodedBytes) throw new DecodedTooLargeError(`envelope larger than ${maxDecodedBytes} bytes decoded`);
      yield chunk;
    }
  } catch (error) {
    if (error instanceof DecodedTooLargeError || isSourceError(error)) throw error;
    throw new MalformedRequestError("body does not match its Content-Encoding");
  } finally {
    zlib.destroy();
    source.destroy();
  }
}
