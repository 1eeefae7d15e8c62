import { finished, Readable } from "node:stream";
import { BodyCopy, type CopyRefusal, type HeldBytes } from "./body-copy";
import { BodyTooLargeError, ClientAbortedError } from "./errors";

export type BodyFailure = "too_large" | "client_aborted";

// Bodies declared up to this size are pulled rather than pushed upstream: see upload().
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
    const buffered = this.#source ? null : (this.#request.read() as Buffer | null);
    const chunk = buffered ?? (await this.#next());
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
   * arrives. Two ways, chosen by size, as measured (BENCHMARKS.md, issue 15's memory work):
   * pushed through a stream costs more per upload (100 KiB envelopes: 13 % more CPU each) but
   * less per chunk and holds each chunk for less time (1 MiB envelopes: 7 % less CPU, and RSS under
   * 200 at once ≈ 1.1× the bare relay's against 1.5× pulled). So a body declared small is pulled,
   * and a larger one or one of unknown length is pushed. Either way an error (too large, client
   * gone) aborts the upstream request and leaves the request itself intact for the answer;
   * `onError` hears of it first.
   */
  async upload(head: Buffer[], onError: () => void): Promise<Readable | AsyncGenerator<Buffer>> {
    const declared = this.#declaredBytes;
    if (declared !== undefined && declared <= PULL_MAX_BYTES) return this.#pulled(head, onError);
    // The request is read through 'data' events from here on, not through its iterator.
    await this.release();
    return this.#pushed(head, onError);
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

  /**
   * A stream fed by the request's 'data' events, as undici's own streaming of a request would be:
   * each chunk reaches the upstream socket in the tick it was read, and nothing here refers to it
   * afterwards. Pulled through an async iterator instead, chunks stayed alive across
   * young-generation GCs, so their 64 KiB buffers waited for a full GC. Backpressure both ways:
   * the request pauses while undici has paused this stream (upstream socket full). The request
   * must not be read through its iterator at the same time.
   */
  #pushed(head: Buffer[], onError: () => void): Readable {
    const request = this.#request;
    let attached = true;
    const body = new Readable({
      // Asked for more; not while undici has this stream paused (see below).
      read: () => {
        if (attached && !body.isPaused()) request.resume();
      },
      destroy: (error, callback) => {
        detach();
        callback(error);
      },
    });
    // undici pauses this stream while the upstream socket is full: the request pauses with it at
    // once, as it would if undici read it directly, or one more chunk per upload waits in memory.
    body.on("pause", () => request.pause());
    body.on("resume", () => {
      if (attached) request.resume();
    });
    // Already counted while the header was peeked; emptied so that only the stream refers to them.
    for (const chunk of head.splice(0)) body.push(chunk);
    const fail = (error: Error) => {
      detach();
      onError();
      body.destroy(error);
    };
    const onData = (chunk: Buffer) => {
      try {
        this.#count(chunk);
      } catch (error) {
        return fail(error as Error);
      }
      if (!body.push(chunk)) request.pause();
    };
    const onEnd = () => {
      detach();
      body.push(null);
    };
    // Errors only: its callback without one may wait for 'close', after 'end'.
    const stopWatching = finished(request, { writable: false }, (error) => {
      if (!error) return;
      this.failure = "client_aborted";
      fail(new ClientAbortedError("client aborted the upload"));
    });
    // Paused, so that no chunk goes out as 'data' with nobody listening (whole() may read on).
    const detach = () => {
      attached = false;
      request.off("data", onData).off("end", onEnd);
      request.pause();
      stopWatching();
    };
    request.on("data", onData);
    if (request.readableEnded) onEnd();
    else request.once("end", onEnd);
    return body;
  }
}
