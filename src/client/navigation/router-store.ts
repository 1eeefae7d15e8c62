import type { RouterState } from "../../shared/navigation/router-state";
import type { NavigationEvent } from "./navigation-events";

/** The router's state as the browser keeps it: what components read, and what effects need besides. */
export interface BrowserRouterState extends RouterState {
  /** Set anew when a navigation starts (not for the redirects it follows): the route the browser matched. */
  started: NavigationEvent | undefined;
  /** The position of the entry on screen in this tab's history (kept in the entry as `idx`): how far back/forward moved. */
  entryIndex: number;
  /** The navigation that showed this location asked to keep the scroll where it was. */
  preventScrollReset: boolean;
}

export type StoreListener = (next: BrowserRouterState, previous: BrowserRouterState) => void;

/** One value for the router's state; every change replaces it and tells each listener what it was. */
export class RouterStore {
  #state: BrowserRouterState;
  readonly #listeners = new Set<StoreListener>();

  constructor(initial: BrowserRouterState) {
    this.#state = initial;
  }

  get state(): BrowserRouterState {
    return this.#state;
  }

  set(change: Partial<BrowserRouterState>): void {
    const previous = this.#state;
    this.#state = { ...previous, ...change };
    for (const listener of this.#listeners) listener(this.#state, previous);
  }

  subscribe(listener: StoreListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }
}
