import type { DataCause } from "./should-revalidate";

/**
 * Counts what made the page's data old (an action answered, revalidate() was called) and how much
 * of it the data on screen reflects, so that a revalidation started earlier never counts for a
 * later action.
 */
export class DataFreshness {
  #invalidated = 0;
  #freshAsOf = 0;
  /** Why the data on screen is out of date: an action wins over revalidate(). */
  #staleBy: "action" | "revalidate" = "revalidate";

  /** The data on screen is out of date from now on; returns the generation to wait for. */
  invalidate(cause: "action" | "revalidate"): number {
    if (cause === "action" || !this.stale) this.#staleBy = cause;
    return ++this.#invalidated;
  }

  /** Why a request for the page's data is made now; `revalidating` when it reloads the page on screen. */
  causeOf(revalidating: boolean): DataCause {
    if (this.stale) return this.#staleBy;
    return revalidating ? "revalidate" : "navigation";
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
