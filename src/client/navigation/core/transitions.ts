import {
  type BlockerState,
  IDLE_FETCHER,
  IDLE_NAVIGATION,
  type RouterLocation,
  UNBLOCKED,
  type ViewTransition,
} from "../../../shared/navigation/router-state";
import type { RouteState } from "../../../shared/routing/route-state";
import type { BlockerFunction } from "../../../shared/navigation/router-context";
import type { NavigationEvent } from "./navigation-events";
import { type Blocking, type BrowserRouterState as State, type FetcherRecord, isStale } from "./router-store";

/*
 * Every change of the router's state, by name: each a pure function of the state and what
 * happened, applied with `store.apply(transition, input)`. What the browser does as the state
 * changes (history, scroll, focus, events) stays with the callers and the effects.
 */

/** A page navigation starts (a link, back/forward, a redirect followed): the router is loading `location`. */
export function navigate(state: State, start: { location: string; started?: NavigationEvent; viewTransition?: ViewTransition }): State {
  const { location, started = state.started, viewTransition = state.viewTransition } = start;
  return { ...state, navigation: { state: "loading", location }, revalidation: "idle", started, viewTransition };
}

/** The page's loaders run again with no navigation (after an action, revalidate()). */
export function revalidate(state: State): State {
  return { ...state, revalidation: "loading" };
}

/** A `<Form>` posts `formData` to the action at `path`. */
export function submit(state: State, { path, formData }: { path: string; formData: FormData }): State {
  return { ...state, navigation: { state: "submitting", location: path, formMethod: "POST", formAction: path, formData }, revalidation: "idle" };
}

/** A page on screen: where it moved to, if it did. */
export interface Landing {
  page: RouteState;
  /** The new location; absent when the page on screen got new data (a revalidation, its own form's answer). */
  moved?: { location: RouterLocation; historyAction: State["historyAction"]; entryIndex: number; preventScrollReset: boolean };
  /** The generation of data (`invalidated`) when the page's request started: the page reflects at least this many. */
  generation: number;
  /** Shown inside a view transition: `viewTransition` stays until it has finished (viewTransitionEnd). */
  inViewTransition: boolean;
}

/**
 * The page a navigation, submission or revalidation loaded is shown, in one change: fetchers
 * waiting for data this fresh turn idle with it (no optimistic value flickers back), and a
 * blocker that let the navigation through is free again.
 */
export function settle(state: State, { page, moved, generation, inViewTransition }: Landing): State {
  const freshAsOf = Math.max(state.freshAsOf, generation);
  return {
    ...state,
    ...moved,
    page,
    navigation: IDLE_NAVIGATION,
    revalidation: "idle",
    freshAsOf,
    fetchers: settledFetchers(state.fetchers, freshAsOf),
    blocker: state.blocker.state === "proceeding" ? UNBLOCKED : state.blocker,
    viewTransition: inViewTransition ? state.viewTransition : null,
  };
}

/** A navigation or submission ends with no page to show (a refused redirect, a form the browser posts itself). */
export function fail(state: State): State {
  return { ...state, navigation: IDLE_NAVIGATION, revalidation: "idle", viewTransition: null };
}

/** Back/forward to another fragment of the page on screen: nothing to load. */
export function popWithinPage(state: State, { location, entryIndex }: { location: RouterLocation; entryIndex: number }): State {
  return { ...state, location, historyAction: "pop", entryIndex };
}

/** The view transition the page was shown in has finished (unless a newer one runs). */
export function viewTransitionEnd(state: State, running: ViewTransition | null): State {
  if (running === null || state.viewTransition !== running) return state;
  return { ...state, viewTransition: null };
}

/** The page's data is out of date from now on (an action answered, revalidate() was called): the new `invalidated` is the generation to wait for. */
export function invalidate(state: State, cause: State["staleBy"]): State {
  const staleBy = cause === "action" || !isStale(state) ? cause : state.staleBy;
  return { ...state, invalidated: state.invalidated + 1, staleBy };
}

const withBlocking = (state: State, change: Partial<Blocking>): State => ({ ...state, blocking: { ...state.blocking, ...change } });

/** A useBlocker mounts: its function is asked before each navigation (the one mounted last wins). */
export function registerBlocker(state: State, shouldBlock: BlockerFunction): State {
  return withBlocking(state, { shouldBlock });
}

/** That useBlocker unmounts: its function is asked no more, unless a newer one replaced it already. */
export function unregisterBlocker(state: State, shouldBlock: BlockerFunction): State {
  return state.blocking.shouldBlock === shouldBlock ? withBlocking(state, { shouldBlock: undefined }) : state;
}

/** useBlocker holds the navigation to `location`; proceed() runs `resume`. */
export function block(state: State, { location, resume }: { location: NonNullable<BlockerState["location"]>; resume: () => void }): State {
  return { ...withBlocking(state, { held: resume }), blocker: { state: "blocked", location } };
}

/** proceed(): the held navigation goes on (its caller runs it). */
export function proceed(state: State): State {
  const { location } = state.blocker;
  return location ? { ...withBlocking(state, { held: undefined }), blocker: { state: "proceeding", location } } : state;
}

/** reset(): the held navigation is dropped. */
export function unblock(state: State): State {
  if (state.blocker.state === "unblocked" && state.blocking.held === undefined) return state;
  return { ...withBlocking(state, { held: undefined }), blocker: UNBLOCKED };
}

/** A proceeded navigation ended without landing (refused, left, superseded). */
export function release(state: State): State {
  return state.blocker.state === "proceeding" ? { ...state, blocker: UNBLOCKED } : state;
}

/** The router moves history itself (a held back/forward put back, or redone by proceed()): the next popstate is its own. */
export function expectOwnPop(state: State, ownPop: NonNullable<Blocking["ownPop"]>): State {
  return withBlocking(state, { ownPop });
}

/** A popstate arrived: the router's own, if it expected one, has come. */
export function popArrived(state: State): State {
  return state.blocking.ownPop === undefined ? state : withBlocking(state, { ownPop: undefined });
}

/** The state with the fetcher `key` changed (an idle one if it had none). */
export function withFetcher(state: State, key: string, change: (fetcher: FetcherRecord) => FetcherRecord): State {
  const fetchers = new Map(state.fetchers);
  fetchers.set(key, change(fetchers.get(key) ?? IDLE_FETCHER));
  return { ...state, fetchers };
}

/** The fetcher `key` loads, or submits `formData`. */
export function fetcherStart(state: State, key: string, formData: FormData | undefined): State {
  return withFetcher(state, key, (fetcher) => ({ ...fetcher, state: formData ? "submitting" : "loading", formData, waitFor: undefined }));
}

/** No component uses the fetcher `key` any more. */
export function fetcherDrop(state: State, key: string): State {
  if (!state.fetchers.has(key)) return state;
  const fetchers = new Map(state.fetchers);
  fetchers.delete(key);
  return { ...state, fetchers };
}

function settledFetchers(fetchers: State["fetchers"], freshAsOf: number): State["fetchers"] {
  const waiting = [...fetchers].filter(([, fetcher]) => fetcher.waitFor !== undefined && fetcher.waitFor <= freshAsOf);
  if (waiting.length === 0) return fetchers;
  const next = new Map(fetchers);
  for (const [key, fetcher] of waiting) next.set(key, { state: "idle", data: fetcher.data, error: fetcher.error, formData: undefined });
  return next;
}
