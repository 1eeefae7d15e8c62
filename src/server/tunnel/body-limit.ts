import { finished, type Readable, Transform } from "node:stream";
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
  // A copy of the body's chunks (references, not bytes) while it fits the spool: see keep().
  #kept: Buffer[] | undefined;
  #overflowed: (() => void) | undefined;

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
   * The rest of the body, read here rather than streamed (the ingest is known to be down):
   * `head` and everything after it, or undefined once it exceeds `limit` bytes.
   */
  async readAll(head: readonly Buffer[], limit: number): Promise<Buffer | undefined> {
    const chunks = [...head];
    let length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    for (let chunk = await this.read(); chunk !== undefined; chunk = await this.read()) {
      length += chunk.length;
      if (length > limit) return undefined;
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, length);
  }

  /**
   * The whole body as streamed upstream, for the spool when the ingest failed: read to its end if
   * the ingest stopped reading it. undefined when it is larger than `toStream`'s `keepUpTo`, or
   * the client left.
   */
  async whole(): Promise<Buffer | undefined> {
    const request = this.#request as Readable & { complete?: boolean };
    if (!this.#kept) return undefined;
    if (!request.readableEnded) {
      request.unpipe();
      const ended = new Promise<void>((resolve) => {
        const stop = finished(request, { writable: false }, () => {
          stop();
          resolve();
        });
        this.#overflowed = resolve;
      });
      request.resume();
      await ended;
    }
    return this.#kept && request.complete !== false && request.readableEnded ? Buffer.concat(this.#kept) : undefined;
  }

  /** Stops reading and detaches from the request, leaving it intact. */
  async release(): Promise<void> {
    await this.#source?.return?.();
  }

  /**
   * The upstream request body: the chunks already peeked, then the rest piped through a
   * counter. Pulled by undici, so a slow ingest slows the client down instead of filling
   * memory; an error (too large, client gone) destroys the stream, which aborts the upstream
   * request, while the request itself is only unpiped, left intact for the answer.
   */
  async toStream(head: readonly Buffer[], keepUpTo = 0): Promise<Readable> {
    await this.release();
    const request = this.#request;
    if (keepUpTo > 0 && (this.#declaredBytes ?? 0) <= keepUpTo) this.#keep(head, keepUpTo);
    const counted = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        this.bytes += chunk.length;
        if (this.bytes <= this.#maxBytes) return done(null, chunk);
        this.failure = "too_large";
        request.unpipe(counted);
        done(new BodyTooLargeError("envelope larger than the size limit"));
      },
    });
    // Already counted while the header was peeked.
    for (const chunk of head) counted.push(chunk);
    const stopWatching = finished(request, { writable: false }, (error) => {
      stopWatching();
      if (!error || counted.destroyed) return;
      this.failure ??= "client_aborted";
      request.unpipe(counted);
      counted.destroy(new ClientAbortedError("client aborted the upload"));
    });
    counted.once("close", () => request.unpipe(counted));
    return request.pipe(counted);
  }

  /** Holds on to the chunks as they pass, while there are at most `limit` bytes of them. */
  #keep(head: readonly Buffer[], limit: number): void {
    const kept = [...head];
    let length = this.bytes;
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length <= limit) return void kept.push(chunk);
      this.#kept = undefined;
      this.#request.off("data", onData);
      this.#overflowed?.();
    };
    this.#kept = kept;
    this.#request.on("data", onData);
  }
}
