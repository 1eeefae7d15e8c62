/**
 * Counts what made the page's data old (an action answered, revalidate() was called) and how much
 * of it the data on screen reflects, so that a revalidation started earlier never counts for a
 * later action.
 */
export class DataFreshness {
  #invalidated = 0;
  #freshAsOf = 0;

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
    this.#freshAsOf = Math.max(this.#freshAsOf, generation);
  }
}
