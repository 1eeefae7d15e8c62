import {
  type BlockerState,
  IDLE_FETCHER,
  IDLE_NAVIGATION,
  type RouterLocation,
  UNBLOCKED,
  type ViewTransition,
} from "../../../shared/navigation/router-state";
import type { RouteState } from "../../../shared/routing/route-state";
import type { NavigationEvent } from "./navigation-events";
import type { BrowserRouterState as State, FetcherRecord } from "./router-store";

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
  /** The generation of data the page reflects. */
  freshAsOf: number;
  /** Shown inside a view transition: `viewTransition` stays until it has finished (viewTransitionEnd). */
  inViewTransition: boolean;
}

/**
 * The page a navigation, submission or revalidation loaded is shown, in one change: fetchers
 * waiting for data this fresh turn idle with it (no optimistic value flickers back), and a
 * blocker that let the navigation through is free again.
 */
export function settle(state: State, { page, moved, freshAsOf, inViewTransition }: Landing): State {
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

/** useBlocker holds the navigation to `location`. */
export function block(state: State, location: NonNullable<BlockerState["location"]>): State {
  return { ...state, blocker: { state: "blocked", location } };
}

/** proceed(): the held navigation goes on. */
export function proceed(state: State): State {
  const { location } = state.blocker;
  return location ? { ...state, blocker: { state: "proceeding", location } } : state;
}

/** reset(): the held navigation is dropped. */
export function unblock(state: State): State {
  return state.blocker.state === "unblocked" ? state : { ...state, blocker: UNBLOCKED };
}

/** A proceeded navigation ended without landing (refused, left, superseded). */
export function release(state: State): State {
  return state.blocker.state === "proceeding" ? { ...state, blocker: UNBLOCKED } : state;
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
