import { finished, Readable } from "node:stream";
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
   * arrives. A stream fed by the request's 'data' events, as undici streams a request itself:
   * each chunk reaches the upstream socket in the tick it was read and nothing here refers to it
   * afterwards. (Pulled through an async iterator, chunks outlived young-generation GCs and their
   * 64 KiB buffers waited for a full GC: 200 uploads at once grew RSS ≈ 1.5× the bare relay's.)
   * An error (too large, client gone) destroys this stream, which aborts the upstream request,
   * and leaves the request intact and paused for the answer; `onError` hears of it first. Call
   * release() before: the request must not be read through its iterator at the same time.
   */
  upload(head: Buffer[], onError: () => void): Readable {
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
