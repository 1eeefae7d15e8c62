/**
 * Counts what made the page's data old (an action answered, revalidate() was called) and how much
 * of it the data on screen reflects, so that a revalidation started earlier never counts for a
 * later action, and whoever waits for fresh data learns when it is on screen.
 */
export class DataFreshness {
  #invalidated = 0;
  #freshAsOf = 0;
  #waiters: { generation: number; resolve: () => void }[] = [];

  /** The data on screen is out of date from now on; returns the generation to wait for. */
  invalidate(): number {
    return ++this.#invalidated;
  }

  /** The generation a data request started now reflects once answered. */
  get generation(): number {
    return this.#invalidated;
  }

  get freshAsOf(): number {
    return this.#freshAsOf;
  }

  get stale(): boolean {
    return this.#invalidated > this.#freshAsOf;
  }

  /** A page state from a request started at `generation` is on screen. */
  committed(generation: number): void {
    if (generation <= this.#freshAsOf) return;
    this.#freshAsOf = generation;
    const waiting = this.#waiters;
    this.#waiters = waiting.filter((waiter) => waiter.generation > generation);
    for (const waiter of waiting) if (waiter.generation <= generation) waiter.resolve();
  }

  /** Resolves once the page shows data loaded after `generation`'s invalidation. */
  whenFresh(generation: number): Promise<void> {
    if (generation <= this.#freshAsOf) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ generation, resolve }));
  }
}
