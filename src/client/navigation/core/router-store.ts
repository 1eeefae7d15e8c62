import type { BlockerFunction } from "../../../shared/navigation/router-context";
import { type FetcherStatus, IDLE_NAVIGATION, type RouterState, UNBLOCKED } from "../../../shared/navigation/router-state";
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
  /** How often the page's data was made out of date (actions, revalidate()): a request started now reflects this many. */
  invalidated: number;
  /** Why the data on screen is out of date: an action wins over revalidate(). */
  staleBy: "action" | "revalidate";
  blocking: Blocking;
}

/**
 * useBlocker's function and the navigation it holds. A held back/forward has already moved the
 * URL, so the router moves it back itself; `ownPop` names the popstate that move causes.
 */
export interface Blocking {
  /** The blocker mounted last: asked before a navigation starts. */
  shouldBlock: BlockerFunction | undefined;
  /** The held navigation, run by proceed(). */
  held: (() => void) | undefined;
  /** The next popstate is the router's own: "restore" (the URL put back, ignored) or "proceed" (let through). */
  ownPop: "restore" | "proceed" | undefined;
}

/** The state a page loaded by the browser starts with: idle, nothing held, its data as fresh as it gets. */
export function initialState(page: RouterState["page"], location: RouterState["location"], entryIndex: number): BrowserRouterState {
  return {
    location,
    historyAction: "pop",
    page,
    navigation: IDLE_NAVIGATION,
    fetchers: new Map(),
    revalidation: "idle",
    freshAsOf: 0,
    started: undefined,
    blocker: UNBLOCKED,
    viewTransition: null,
    entryIndex,
    preventScrollReset: false,
    invalidated: 0,
    staleBy: "revalidate",
    blocking: { shouldBlock: undefined, held: undefined, ownPop: undefined },
  };
}

/** The data on screen predates an action or a revalidate() call. */
export const isStale = (state: BrowserRouterState): boolean => state.invalidated > state.freshAsOf;

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
