import type { DroppedByOrigin, SpoolStore } from "./store";
import type { SpoolEntry } from "./types";

interface PendingAdd {
  entry: SpoolEntry;
  resolve(): void;
  reject(error: unknown): void;
}

export interface WriterEvents {
  /** Envelopes dropped, oldest first, to make room. */
  capDrop(dropped: DroppedByOrigin): void;
  /** A removal failed; it is tried again after `retryInMs`, and the envelopes are not sent meanwhile. */
  removeError(error: unknown, retryInMs: number): void;
}

/**
 * Group commit: envelopes and removals queued during one turn of the event loop are written in
 * one transaction, so one fsync serves every envelope that arrived together in an outage. A
 * removal that fails (a full disk) stays queued and is retried on its own backoff: delivered
 * envelopes are never sent again for it while the process lives.
 */
export class SpoolWriter {
  #adds: PendingAdd[] = [];
  readonly #removals = new Set<number>();
  #scheduled = false;
  #removalFailures = 0;
  #removalRetry: NodeJS.Timeout | undefined;
  readonly #store: SpoolStore;
  readonly #maxBytes: number;
  readonly #events: WriterEvents;
  readonly #retryDelay: (failures: number) => number;

  constructor(store: SpoolStore, maxBytes: number, events: WriterEvents, retryDelay: (failures: number) => number) {
    this.#store = store;
    this.#maxBytes = maxBytes;
    this.#events = events;
    this.#retryDelay = retryDelay;
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
    this.#flushRemovals();
    const adds = this.#adds;
    this.#adds = [];
    // Each commit fits the byte cap, so that none drops more than it must and the spool stays within it.
    let group: PendingAdd[] = [];
    let bytes = 0;
    for (const add of adds) {
      const size = add.entry.body.length;
      if (group.length > 0 && bytes + size > this.#maxBytes) {
        this.#commit(group);
        group = [];
        bytes = 0;
      }
      group.push(add);
      bytes += size;
    }
    if (group.length > 0) this.#commit(group);
  }

  /** No removal retries after this; what is still queued goes again after a restart (at least once). */
  close(): void {
    clearTimeout(this.#removalRetry);
    this.#removalRetry = undefined;
    this.flush();
    clearTimeout(this.#removalRetry);
  }

  #flushRemovals(): void {
    if (this.#removals.size === 0 || this.#removalRetry) return;
    try {
      this.#store.remove([...this.#removals]);
    } catch (error) {
      const retryInMs = this.#retryDelay(this.#removalFailures);
      this.#removalFailures += 1;
      this.#removalRetry = setTimeout(() => {
        this.#removalRetry = undefined;
        this.#schedule();
      }, retryInMs);
      this.#removalRetry.unref();
      this.#events.removeError(error, retryInMs);
      return;
    }
    this.#removalFailures = 0;
    this.#removals.clear();
  }

  #commit(adds: PendingAdd[]): void {
    let dropped: DroppedByOrigin;
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
    if (dropped.size > 0) this.#events.capDrop(dropped);
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.flush());
  }
}
