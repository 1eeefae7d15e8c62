import { setImmediate as nextMacrotask } from "node:timers/promises";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { MalformedRequestError } from "../contract/errors";

export type CompressedEncoding = "gzip" | "deflate" | "br";

/**
 * Decompresses just the beginning of a compressed body, so the envelope header can be read
 * while the compressed bytes themselves are forwarded untouched. Inflation stops once `limit`
 * decoded bytes were produced, so a decompression bomb costs at most that much memory.
 */
export class PrefixDecoder {
  readonly #zlib;
  #output: Buffer[] = [];
  #decoded = 0;
  #failed = false;

  constructor(encoding: CompressedEncoding, limit: number) {
    this.#zlib =
      encoding === "gzip" ? createGunzip() : encoding === "deflate" ? createInflate() : createBrotliDecompress();
    this.#zlib.on("data", (chunk: Buffer) => {
      this.#output.push(chunk);
      this.#decoded += chunk.length;
      if (this.#decoded > limit) this.#zlib.destroy();
    });
    this.#zlib.on("error", () => {
      this.#failed = true;
    });
  }

  /** Feeds compressed bytes and returns what they decoded to (possibly nothing yet). */
  write(chunk: Buffer): Promise<Buffer[]> {
    return this.#settle((done) => {
      this.#zlib.write(chunk);
      this.#zlib.flush(done);
    });
  }

  /** The body ended: returns the remaining output, or throws if the compressed stream was truncated. */
  end(): Promise<Buffer[]> {
    return this.#settle(() => this.#zlib.end());
  }

  close(): void {
    this.#zlib.destroy();
  }

  async #settle(start: (done: () => void) => void): Promise<Buffer[]> {
    const zlib = this.#zlib;
    if (!zlib.destroyed) {
      await new Promise<void>((resolve) => {
        const done = () => {
          zlib.off("close", done);
          resolve();
        };
        zlib.once("close", done);
        start(done);
      });
      // Output pushed while flushing may still be queued for the next tick; let it reach the data listener.
      await nextMacrotask();
    }
    if (this.#failed) throw new MalformedRequestError("body does not match its Content-Encoding");
    const output = this.#output;
    this.#output = [];
    return output;
  }
}
