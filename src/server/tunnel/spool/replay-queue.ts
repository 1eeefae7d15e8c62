import type { ScanTier, SpoolStore } from "./store";
import type { StoredEnvelope } from "./types";

const SCAN_BATCH = 64;

/** When an envelope may go: a time (0 or past: now), or "busy" (in flight or being removed). */
export type DueAt = (row: StoredEnvelope) => number | "busy";

/** One tier of one upstream's envelopes read oldest first, a batch at a time, from a cursor. */
class TierScan {
  #cursor = 0;
  // Envelopes read ahead of the cursor, oldest first.
  #batch: StoredEnvelope[] = [];
  // The earliest time an envelope skipped since the last restart may go.
  #skippedUntil = Number.POSITIVE_INFINITY;
  readonly #store: SpoolStore;
  readonly #tier: ScanTier;
  readonly #origin: string;

  constructor(store: SpoolStore, tier: ScanTier, origin: string) {
    this.#store = store;
    this.#tier = tier;
    this.#origin = origin;
  }

  next(now: number, dueAt: DueAt): StoredEnvelope | number {
    // A skipped envelope has come due: start again from the oldest so that it goes in its turn.
    if (this.#skippedUntil <= now) this.restart();
    for (;;) {
      if (this.#batch.length === 0) {
        this.#batch = this.#store.after(this.#cursor, SCAN_BATCH, this.#tier, this.#origin);
        if (this.#batch.length === 0) break;
      }
      for (let row = this.#batch[0]; row; row = this.#batch[0]) {
        // Returned, it stays first: if it cannot go now, the next look starts with it.
        const until = dueAt(row);
        if (until !== "busy") {
          if (until <= now) return row;
          this.#skippedUntil = Math.min(this.#skippedUntil, until);
        }
        this.#cursor = row.id;
        this.#batch.shift();
      }
    }
    // End of the tier: the next pass starts again from the oldest.
    const wait = this.#skippedUntil - now;
    this.restart();
    return wait;
  }

  restart(): void {
    this.#cursor = 0;
    this.#batch = [];
    this.#skippedUntil = Number.POSITIVE_INFINITY;
  }
}

/**
 * Which of one upstream's spooled envelopes goes next: the oldest due one that has never failed, else the oldest
 * due one that has. Failing envelopes, however many, thus wait behind healthy ones, and cannot
 * take every delivery slot while healthy ones are due.
 */
export class ReplayQueue {
  readonly #fresh: TierScan;
  readonly #retrying: TierScan;

  constructor(store: SpoolStore, origin: string) {
    this.#fresh = new TierScan(store, "fresh", origin);
    this.#retrying = new TierScan(store, "retrying", origin);
  }

  /**
   * The next envelope to send, or how long to wait for one (until one is due, or for news).
   * Envelopes that failed before are not considered until `retryingAt`.
   */
  next(now: number, dueAt: DueAt, retryingAt: number): StoredEnvelope | number {
    const fresh = this.#fresh.next(now, dueAt);
    if (typeof fresh === "object") return fresh;
    if (retryingAt > now) return Math.min(fresh, retryingAt - now);
    const retrying = this.#retrying.next(now, dueAt);
    return typeof retrying === "object" ? retrying : Math.min(fresh, retrying);
  }

  /** Start again from the oldest of each tier. */
  restart(): void {
    this.#fresh.restart();
    this.#retrying.restart();
  }
}
