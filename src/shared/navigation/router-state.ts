import type { RouteError } from "../routing/module";
import type { RouteState } from "../routing/route-state";

/**
 * The pending navigation: none, a page loading (a link, back or forward, a redirect being
 * followed), or a form's submission to a page's action, with what it sends.
 */
export type Navigation =
  | { state: "idle" }
  | { state: "loading"; location: string }
  | { state: "submitting"; location: string; formMethod: "POST"; formAction: string; formData: FormData };

/** No navigation pending: the one value both sides use (the server's hooks answer it). */
export const IDLE_NAVIGATION: Navigation = { state: "idle" };

export type FetcherState = "idle" | "submitting" | "loading";

/** One fetcher's request and its answer, by the fetcher's key. */
export interface FetcherStatus {
  state: FetcherState;
  data: unknown;
  error: RouteError | undefined;
  formData: FormData | undefined;
}

/** A fetcher with no request and no answer yet. */
export const IDLE_FETCHER: FetcherStatus = { state: "idle", data: undefined, error: undefined, formData: undefined };

/**
 * The address on screen; `key` names its history entry (scroll positions are kept by it) and
 * `state` is what `navigate(to, { state })` stored in that entry (null otherwise).
 */
export interface RouterLocation {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
  key: string;
}

/** A navigation useBlocker() holds: none, one waiting for proceed() or reset(), or one let through. */
export type BlockerState =
  | { state: "unblocked"; location: undefined }
  | { state: "blocked" | "proceeding"; location: Omit<RouterLocation, "key"> };

export const UNBLOCKED: BlockerState = { state: "unblocked", location: undefined };

/** A navigation running inside a view transition: the paths it goes from and to. */
export interface ViewTransition {
  from: string;
  to: string;
}

/** Everything the browser's router knows, in one value that changes as a whole. */
export interface RouterState {
  location: RouterLocation;
  /** How the location on screen was reached. */
  historyAction: "push" | "replace" | "pop";
  /** The page on screen: its matched routes and their data. */
  page: RouteState;
  navigation: Navigation;
  fetchers: ReadonlyMap<string, FetcherStatus>;
  /** "loading" while the page's loaders run again with no navigation (after an action, revalidate()). */
  revalidation: "idle" | "loading";
  /** How many actions (and revalidate() calls) the data on screen reflects. */
  freshAsOf: number;
  blocker: BlockerState;
  /** From the start of a navigation asked with `viewTransition` until its transition has finished. */
  viewTransition: ViewTransition | null;
}
