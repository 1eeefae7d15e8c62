import type { Readable } from "node:stream";
import { BodyCopy, type CopyRefusal, type HeldBytes } from "./body-copy";
import { BodyTooLargeError, ClientAbortedError } from "../contract/errors";
import { directUpload } from "./direct-upload";
import { pushedUpload } from "./pushed-upload";

export type BodyFailure = "too_large" | "client_aborted";

// Bodies declared up to this size are pulled rather than streamed upstream: see upload().
const PULL_MAX_BYTES = 256 * 1024;

/**
 * The client's request body, read chunk by chunk and counted against the size cap, whether or
 * not a Content-Length was sent. The request is never destroyed from here: an over-size body
 * must still get its 413 on the same connection.
 */
export class ClientBody {
  bytes = 0;
  failure: BodyFailure | undefined;
  readonly #request: Readable;
  // Made on the first read that has to wait: a small envelope is usually buffered already.
  #source: AsyncIterator<Buffer> | undefined;
  readonly #maxBytes: number;
  readonly #declaredBytes: number | undefined;
  // For the spool while the ingest has not answered: see copy().
  #copy: BodyCopy | undefined;

  /** `declaredBytes`: the request's Content-Length, which Node's parser holds the body to. */
  constructor(request: Readable, maxBytes: number, declaredBytes?: number) {
    this.#request = request;
    this.#maxBytes = maxBytes;
    this.#declaredBytes = declaredBytes;
  }

  /** Every byte the client declared has been read: nothing more will arrive. */
  get receivedAll(): boolean {
    return this.#declaredBytes !== undefined && this.bytes === this.#declaredBytes;
  }

  /** The next chunk, or undefined at the end of the body. */
  async read(): Promise<Buffer | undefined> {
    // Once the iterator exists, it alone reads (no extra await per chunk).
    const chunk = (this.#source ? null : await this.#buffered()) ?? (await this.#next());
    if (chunk === undefined) return undefined;
    this.#count(chunk);
    return chunk;
  }

  #count(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.bytes > this.#maxBytes) {
      this.failure = "too_large";
      throw new BodyTooLargeError("envelope larger than the size limit");
    }
    this.#copy?.add(chunk);
  }

  /**
   * A chunk already buffered, without the iterator. The handler is reached synchronously from
   * the 'request' event, before Node's parser has pushed a body that came in the same packet as
   * the headers (browsers send small bodies so): one microtask later it is there.
   */
  async #buffered(): Promise<Buffer | null> {
    const request = this.#request;
    const chunk = request.read() as Buffer | null;
    if (chunk !== null || this.bytes > 0) return chunk;
    await undefined;
    return request.read() as Buffer | null;
  }

  async #next(): Promise<Buffer | undefined> {
    this.#source ??= this.#request.iterator({ destroyOnReturn: false });
    try {
      const result = await this.#source.next();
      return result.done ? undefined : result.value;
    } catch {
      this.failure = "client_aborted";
      throw new ClientAbortedError("client aborted the upload");
    }
  }

  /**
   * Keeps the chunks read from now on, `head` first, for the spool (see BodyCopy): bodies that
   * arrived whole while their header was read cost nothing more and skip the budget.
   */
  copy(head: readonly Buffer[], limit: number, budget: HeldBytes): BodyCopy {
    this.#copy = new BodyCopy(this.receivedAll ? undefined : budget, limit, this.#declaredBytes);
    for (const chunk of head) this.#copy.add(chunk);
    return this.#copy;
  }

  /**
   * The whole body as copied since copy(), reading what is left of it (the ingest stopped
   * reading, or is not asked at all). undefined when it was not kept or the client left; the
   * copy is released either way.
   */
  async whole(): Promise<Buffer | undefined> {
    const copy = this.#copy;
    if (!copy) return undefined;
    try {
      while (copy.kept && (await this.read()) !== undefined) {}
      return copy.concat();
    } catch {
      return undefined;
    } finally {
      copy.release();
    }
  }

  /** Why the body was not kept for the spool, if it was not. */
  get copyRefusal(): CopyRefusal | undefined {
    return this.#copy?.refusal;
  }

  /** Gives back the copy's reservation, once the ingest took the body. */
  releaseCopy(): void {
    this.#copy?.release();
  }

  /** Stops reading and detaches from the request, leaving it intact. */
  async release(): Promise<void> {
    const source = this.#source;
    this.#source = undefined;
    await source?.return?.();
  }

  /**
   * The upstream request body: the chunks already peeked, then the rest of the request as it
   * arrives. Three ways (docs/decisions/0009-direct-upload-for-large-declared-bodies.md): a body declared up to
   * 256 KiB is pulled (the cheapest per upload); a larger declared one that nothing needs to
   * copy is the request itself (directUpload: least memory, as the bare relay); the rest, a
   * body of unknown length that must be counted against the cap or one copied for the spool,
   * is pushed through a stream (pushedUpload). Either way an error (too large, client gone)
   * aborts the upstream request and leaves the client's connection intact for the answer;
   * `onError` hears of it first.
   */
  async upload(head: Buffer[], onError: () => void): Promise<Readable | AsyncGenerator<Buffer>> {
    const declared = this.#declaredBytes;
    if (declared !== undefined && declared <= PULL_MAX_BYTES) return this.#pulled(head, onError);
    // The request is read through 'data' events from here on, not through its iterator.
    await this.release();
    if (declared !== undefined && !this.#copy?.kept) {
      return directUpload(this.#request, head, {
        ended: () => {
          this.bytes = declared;
        },
        aborted: () => {
          this.failure = "client_aborted";
        },
        onError,
      });
    }
    return pushedUpload(this.#request, head, {
      count: (chunk) => this.#count(chunk),
      aborted: () => {
        this.failure = "client_aborted";
        return new ClientAbortedError("client aborted the upload");
      },
      onError,
    });
  }

  /**
   * Pulled by undici one chunk at a time through the request's async iterator, so a slow ingest
   * slows the client down instead of filling memory.
   */
  async *#pulled(head: Buffer[], onError: () => void): AsyncGenerator<Buffer> {
    // Already counted while the header was peeked.
    yield* head.splice(0);
    try {
      for (let chunk = await this.read(); chunk !== undefined; chunk = await this.read()) yield chunk;
    } catch (error) {
      onError();
      throw error;
    }
  }
}
