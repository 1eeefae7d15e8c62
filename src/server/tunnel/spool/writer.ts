import type { SpoolStore } from "./store";
import type { SpoolEntry } from "./types";

interface PendingAdd {
  entry: SpoolEntry;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Group commit: envelopes and removals queued during one turn of the event loop are written in
 * one transaction, so one fsync serves every envelope that arrived together in an outage.
 */
export class SpoolWriter {
  #adds: PendingAdd[] = [];
  readonly #removals = new Set<number>();
  #scheduled = false;
  readonly #store: SpoolStore;
  readonly #maxBytes: number;
  readonly #onCapDrop: (count: number) => void;
  readonly #onRemoveError: (error: unknown) => void;

  constructor(store: SpoolStore, maxBytes: number, onCapDrop: (count: number) => void, onRemoveError: (error: unknown) => void) {
    this.#store = store;
    this.#maxBytes = maxBytes;
    this.#onCapDrop = onCapDrop;
    this.#onRemoveError = onRemoveError;
  }

  /** Resolves once the envelope is committed to disk; rejects when it could not be written. */
  add(entry: SpoolEntry): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#adds.push({ entry, resolve, reject });
      this.#schedule();
    });
  }

  remove(id: number): void {
    this.#removals.add(id);
    this.#schedule();
  }

  /** Removed but not yet committed: not to be sent again. */
  isRemoving(id: number): boolean {
    return this.#removals.has(id);
  }

  flush(): void {
    this.#scheduled = false;
    if (this.#removals.size > 0) {
      try {
        this.#store.remove([...this.#removals]);
      } catch (error) {
        // Left in the spool: delivered again later (at least once).
        this.#onRemoveError(error);
      }
      this.#removals.clear();
    }
    const adds = this.#adds;
    if (adds.length === 0) return;
    this.#adds = [];
    let dropped: number;
    try {
      dropped = this.#store.insert(
        adds.map((add) => add.entry),
        this.#maxBytes,
      );
    } catch (error) {
      for (const add of adds) add.reject(error);
      return;
    }
    for (const add of adds) add.resolve();
    if (dropped > 0) this.#onCapDrop(dropped);
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.flush());
  }
}
