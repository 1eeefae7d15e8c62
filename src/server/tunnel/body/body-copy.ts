/**
 * Bytes of envelope bodies held in memory across all uploads, in case the ingest fails and the
 * spool needs them (as Sentry Relay caps the memory of its envelope buffer). Taking never waits:
 * what does not fit is refused at once, so no upload ever waits on another's reservation.
 */
export class HeldBytes {
  readonly limit: number;
  #free: number;

  constructor(limit: number) {
    this.limit = limit;
    this.#free = limit;
  }

  get held(): number {
    return this.limit - this.#free;
  }

  tryTake(bytes: number): boolean {
    if (bytes > this.#free) return false;
    this.#free -= bytes;
    return true;
  }

  give(bytes: number): void {
    this.#free = Math.min(this.limit, this.#free + bytes);
  }
}

/** Why a body was not kept for the spool: larger than it takes, or the memory budget was used up. */
export type CopyRefusal = "spool_too_large" | "spool_busy";

/**
 * References to a body's chunks as they are read, for the spool. A body with a Content-Length
 * reserves all of it up front or nothing, so a copy that starts always completes; a chunked one
 * reserves as it grows and is dropped (its reservation returned) at the first chunk that does
 * not fit. Without a budget, nothing is counted (a body already in memory whole). release()
 * must be called once the copy is no longer needed.
 */
export class BodyCopy {
  refusal: CopyRefusal | undefined;
  #chunks: Buffer[] | undefined = [];
  #length = 0;
  #reserved = 0;
  readonly #budget: HeldBytes | undefined;
  readonly #limit: number;

  constructor(budget: HeldBytes | undefined, limit: number, declaredBytes: number | undefined) {
    this.#budget = budget;
    this.#limit = limit;
    if (declaredBytes === undefined) return;
    if (declaredBytes > limit) this.#drop("spool_too_large");
    else if (this.#take(declaredBytes)) this.#reserved = declaredBytes;
    else this.#drop("spool_busy");
  }

  get kept(): boolean {
    return this.#chunks !== undefined;
  }

  add(chunk: Buffer): void {
    if (!this.#chunks) return;
    this.#length += chunk.length;
    const more = this.#length - this.#reserved;
    if (this.#length > this.#limit) this.#drop("spool_too_large");
    else if (more > 0 && !this.#take(more)) this.#drop("spool_busy");
    else {
      this.#reserved += Math.max(more, 0);
      this.#chunks.push(chunk);
    }
  }

  /** The body in one buffer, or undefined if it was not kept. */
  concat(): Buffer | undefined {
    return this.#chunks && Buffer.concat(this.#chunks, this.#length);
  }

  release(): void {
    this.#chunks = undefined;
    this.#budget?.give(this.#reserved);
    this.#reserved = 0;
  }

  #take(bytes: number): boolean {
    return this.#budget?.tryTake(bytes) ?? true;
  }

  #drop(refusal: CopyRefusal): void {
    this.refusal = refusal;
    this.release();
  }
}
