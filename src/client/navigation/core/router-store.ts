import type { FetcherStatus, RouterState } from "../../../shared/navigation/router-state";
import type { NavigationEvent } from "./navigation-events";

/** A fetcher as the store keeps it: after an action, loading until the page's data is this fresh. */
export interface FetcherRecord extends FetcherStatus {
  waitFor?: number;
}

/** The router's state as the browser keeps it: what components read, and what effects need besides. */
export interface BrowserRouterState extends RouterState {
  fetchers: ReadonlyMap<string, FetcherRecord>;
  /** Set anew when a navigation starts (not for the redirects it follows): the route the browser matched. */
  started: NavigationEvent | undefined;
  /** The position of the entry on screen in this tab's history (kept in the entry as `idx`): how far back/forward moved. */
  entryIndex: number;
  /** The navigation that showed this location asked to keep the scroll where it was. */
  preventScrollReset: boolean;
}

/** A named change of the state (./transitions.ts): the next state from this one and what happened. */
export type Transition<Input extends unknown[]> = (state: BrowserRouterState, ...input: Input) => BrowserRouterState;

export type StoreListener = (next: BrowserRouterState, previous: BrowserRouterState) => void;

/** One value for the router's state; every change is a named transition, and each listener learns what the state was. */
export class RouterStore {
  #state: BrowserRouterState;
  readonly #listeners = new Set<StoreListener>();

  constructor(initial: BrowserRouterState) {
    this.#state = initial;
  }

  get state(): BrowserRouterState {
    return this.#state;
  }

  /** A transition that returns the state it was given changed nothing: no listener is told. */
  apply<Input extends unknown[]>(transition: Transition<Input>, ...input: Input): void {
    const previous = this.#state;
    const next = transition(previous, ...input);
    if (next === previous) return;
    this.#state = next;
    for (const listener of this.#listeners) listener(next, previous);
  }

  subscribe(listener: StoreListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }
}
