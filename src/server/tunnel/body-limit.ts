import type { Readable } from "node:stream";
import { BodyCopy, type CopyRefusal, type HeldBytes } from "./body-copy";
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
    const buffered = this.#source ? null : (this.#request.read() as Buffer | null);
    const chunk = buffered ?? (await this.#next());
    if (chunk === undefined) return undefined;
    this.bytes += chunk.length;
    if (this.bytes > this.#maxBytes) {
      this.failure = "too_large";
      throw new BodyTooLargeError("envelope larger than the size limit");
    }
    this.#copy?.add(chunk);
    return chunk;
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
    await this.#source?.return?.();
  }

  /**
   * The upstream request body: the chunks already peeked, then the rest as read. Pulled by
   * undici one chunk at a time, so a slow ingest slows the client down instead of filling memory,
   * and nothing is buffered between the request and the upstream socket. An error (too large,
   * client gone) ends the iteration, which aborts the upstream request, while the request itself
   * is left intact for the answer; `onError` hears of it first.
   */
  async *upload(head: readonly Buffer[], onError: () => void): AsyncGenerator<Buffer> {
    // Already counted while the header was peeked.
    yield* head;
    try {
      for (let chunk = await this.read(); chunk !== undefined; chunk = await this.read()) yield chunk;
    } catch (error) {
      onError();
      throw error;
    }
  }
}
