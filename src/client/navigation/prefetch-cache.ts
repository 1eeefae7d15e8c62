import type { RouteAnswer } from "./fetch-route-data";

// Long enough for a hover to turn into a click; short enough that the data is still fresh.
const FRESH_MS = 10_000;

interface Entry {
  answer: Promise<RouteAnswer>;
  expires: number;
}

/** Answers fetched ahead of a click, by path and query; each is used once. */
export class PrefetchCache {
  readonly #entries = new Map<string, Entry>();

  has(path: string): boolean {
    const entry = this.#entries.get(path);
    if (entry && entry.expires > performance.now()) return true;
    this.#entries.delete(path);
    return false;
  }

  set(path: string, answer: Promise<RouteAnswer>): void {
    this.#entries.set(path, { answer, expires: performance.now() + FRESH_MS });
    // A failed prefetch is forgotten, unless a newer one took its place: the click then asks again.
    answer.catch(() => {
      if (this.#entries.get(path)?.answer === answer) this.#entries.delete(path);
    });
  }

  /** The fresh answer for a path, taken out of the cache. */
  take(path: string): Promise<RouteAnswer> | undefined {
    if (!this.has(path)) return undefined;
    const entry = this.#entries.get(path);
    this.#entries.delete(path);
    return entry?.answer;
  }

  clear(): void {
    this.#entries.clear();
  }
}
