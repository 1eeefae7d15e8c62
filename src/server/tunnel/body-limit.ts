import { Readable } from "node:stream";
import { BodyTooLargeError, ClientAbortedError } from "./errors";

export type BodyFailure = "too_large" | "client_aborted";

/**
 * The client's request body, read chunk by chunk and counted against the size cap, whether or
 * not a Content-Length was sent. The request is never destroyed from here: an over-size body
 * must still get its 413 on the same connection.
 */
export class ClientBody {
  bytes = 0;
  failure: BodyFailure | undefined;
  readonly #source: AsyncIterator<Buffer>;
  readonly #maxBytes: number;
  readonly #declaredBytes: number | undefined;

  /** `declaredBytes`: the request's Content-Length, which Node's parser holds the body to. */
  constructor(request: Readable, maxBytes: number, declaredBytes?: number) {
    this.#source = request.iterator({ destroyOnReturn: false });
    this.#maxBytes = maxBytes;
    this.#declaredBytes = declaredBytes;
  }

  /** Every byte the client declared has been read: nothing more will arrive. */
  get receivedAll(): boolean {
    return this.#declaredBytes !== undefined && this.bytes === this.#declaredBytes;
  }

  /** The next chunk, or undefined at the end of the body. */
  async read(): Promise<Buffer | undefined> {
    let result: IteratorResult<Buffer>;
    try {
      result = await this.#source.next();
    } catch {
      this.failure = "client_aborted";
      throw new ClientAbortedError("client aborted the upload");
    }
    if (result.done) return undefined;
    this.bytes += result.value.length;
    if (this.bytes > this.#maxBytes) {
      this.failure = "too_large";
      throw new BodyTooLargeError("envelope larger than the size limit");
    }
    return result.value;
  }

  /** Stops reading and detaches from the request, leaving it intact. */
  async release(): Promise<void> {
    await this.#source.return?.();
  }

  /**
   * The upstream request body: the chunks already peeked, then the rest as it arrives. Pulled
   * by undici, so a slow ingest slows the client down instead of filling memory; an error
   * (too large, client gone) destroys the stream, which aborts the upstream request.
   */
  toStream(head: readonly Buffer[]): Readable {
    const chunks = async function* (body: ClientBody) {
      try {
        yield* head;
        for (let chunk = await body.read(); chunk !== undefined; chunk = await body.read()) yield chunk;
      } finally {
        await body.release();
      }
    };
    return Readable.from(chunks(this), { objectMode: false });
  }
}
