import type { RouteAnswer } from "./core/fetch-route-data";

// Long enough for a hover to turn into a click; short enough that the data is still fresh.
const FRESH_MS = 10_000;

interface Entry {
  answer: Promise<RouteAnswer>;
  expires: number;
}

/**
 * Answers fetched ahead of a click, by the router's key (`prefetchKey`): path and query, the
 * routes whose loaders were asked for, and the data generation (so an answer from before an
 * action is never used after it); each is used once.
 */
export class PrefetchCache {
  readonly #entries = new Map<string, Entry>();
  readonly #clock: Pick<Performance, "now">;

  constructor(clock: Pick<Performance, "now">) {
    this.#clock = clock;
  }

  has(key: string): boolean {
    const entry = this.#entries.get(key);
    if (entry && entry.expires > this.#clock.now()) return true;
    this.#entries.delete(key);
    return false;
  }

  set(key: string, answer: Promise<RouteAnswer>): void {
    this.#entries.set(key, { answer, expires: this.#clock.now() + FRESH_MS });
    // A failed prefetch is forgotten, unless a newer one took its place: the click then asks again.
    answer.catch(() => {
      if (this.#entries.get(key)?.answer === answer) this.#entries.delete(key);
    });
  }

  /** The fresh answer for a key, taken out of the cache. */
  take(key: string): Promise<RouteAnswer> | undefined {
    if (!this.has(key)) return undefined;
    const entry = this.#entries.get(key);
    this.#entries.delete(key);
    return entry?.answer;
  }

  clear(): void {
    this.#entries.clear();
  }
}
