import { BodyCopy, type CopyRefusal, type HeldBytes } from "../body/body-copy";
import type { ClientBody } from "../body/body-limit";
import type { ContentEncoding } from "../check/envelope-header";
import { BodyTooLargeError, ClientAbortedError, MalformedRequestError } from "../contract/errors";
import { DecodedTooLargeError, decodedChunks } from "../envelope/decode-stream";
import type { Rejection } from "../contract/types";
import type { EnvelopeScrubber } from "./envelope-scrubber";

/** Sentry's own cap on a whole envelope: decoding further is refused (a compressed bomb). */
export const MAX_DECODED_ENVELOPE_BYTES = 200 * 1024 * 1024;
// Output pieces of one input chunk up to this size go out as one write, larger ones as they are.
const JOIN_BYTES = 64 * 1024;

const isBodyError = (error: unknown) => error instanceof BodyTooLargeError || error instanceof ClientAbortedError;

function* batches(pieces: Buffer[]): Generator<Buffer> {
  let bytes = 0;
  for (const piece of pieces) bytes += piece.length;
  if (bytes === 0) return;
  if (bytes <= JOIN_BYTES) yield pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces, bytes);
  else yield* pieces;
}

/**
 * The envelope as it goes upstream with scrubbing on: the client's body read on, decoded, run
 * through the scrubber and sent uncompressed. An uncompressed body that arrived whole is
 * scrubbed at once into one buffer; anything else streams, item by item, and may be copied
 * for the spool (the scrubbed bytes, never the client's). `failure` says why the envelope
 * itself was refused (malformed, or decoding past Sentry's envelope cap); the client's own
 * failures stay on its ClientBody.
 */
export class ScrubbedUpload {
  failure: Rejection | undefined;
  readonly #body: ClientBody;
  readonly #head: Buffer[];
  readonly #encoding: ContentEncoding;
  readonly #scrubber: EnvelopeScrubber;
  #inner: AsyncGenerator<Buffer> | undefined;
  #copy: BodyCopy | undefined;

  constructor(body: ClientBody, head: Buffer[], encoding: ContentEncoding, scrubber: EnvelopeScrubber) {
    this.#body = body;
    this.#head = head;
    this.#encoding = encoding;
    this.#scrubber = scrubber;
  }

  /** The body to send, or undefined when `failure` refused it; `onError` hears of a failure mid-stream. */
  async prepare(onError: () => void): Promise<Buffer | AsyncGenerator<Buffer> | undefined> {
    if (this.#body.receivedAll && this.#encoding === "identity") {
      await this.#body.release();
      try {
        const out = this.#head.splice(0).flatMap((chunk) => this.#scrubber.push(chunk));
        return Buffer.concat([...out, ...this.#scrubber.end()]);
      } catch (error) {
        this.#fail(error);
        return undefined;
      }
    }
    this.#inner = this.#generate();
    return this.#upstream(onError);
  }

  /** Keeps what is sent from now on for the spool, within `limit` and the memory budget (see BodyCopy). */
  copy(limit: number, budget: HeldBytes): void {
    this.#copy = new BodyCopy(budget, limit, undefined);
  }

  get copyRefusal(): CopyRefusal | undefined {
    return this.#copy?.refusal;
  }

  /** The whole scrubbed envelope as copied, scrubbing what is left; undefined when not kept or it failed. */
  async whole(): Promise<Buffer | undefined> {
    const copy = this.#copy;
    const inner = this.#inner;
    if (!copy || !inner) return undefined;
    try {
      for (let step = await inner.next(); copy.kept && !step.done; step = await inner.next()) copy.add(step.value);
      return copy.concat();
    } catch (error) {
      this.#fail(error);
      return undefined;
    } finally {
      copy.release();
    }
  }

  /** Stops reading and decoding; the copy's reservation goes back. */
  async close(): Promise<void> {
    this.#copy?.release();
    await this.#inner?.return(undefined);
  }

  async *#raw(): AsyncGenerator<Buffer> {
    yield* this.#head.splice(0);
    for (let chunk = await this.#body.read(); chunk !== undefined; chunk = await this.#body.read()) yield chunk;
  }

  async *#generate(): AsyncGenerator<Buffer> {
    for await (const decoded of decodedChunks(this.#raw(), this.#encoding, MAX_DECODED_ENVELOPE_BYTES, isBodyError)) {
      yield* batches(this.#scrubber.push(decoded));
    }
    yield* batches(this.#scrubber.end());
  }

  /** What undici reads: the inner generator stepped by hand, so that undici stopping early leaves it for whole(). */
  async *#upstream(onError: () => void): AsyncGenerator<Buffer> {
    const inner = this.#inner as AsyncGenerator<Buffer>;
    for (;;) {
      let step: IteratorResult<Buffer>;
      try {
        step = await inner.next();
      } catch (error) {
        this.#fail(error);
        onError();
        throw error;
      }
      if (step.done) return;
      this.#copy?.add(step.value);
      yield step.value;
    }
  }

  #fail(error: unknown): void {
    if (error instanceof MalformedRequestError) this.failure = [400, "malformed", error.message];
    else if (error instanceof DecodedTooLargeError) this.failure = [413, "too_large", error.message];
    else if (!isBodyError(error)) this.failure = [400, "malformed", "envelope could not be read"];
  }
}
