import { createContext, useContext, useSyncExternalStore } from "react";
import type { FetcherSubmission } from "./fetcher-submission";
import { IDLE_NAVIGATION, type Navigation, type RouterLocation, type RouterState } from "./router-state";

export interface NavigateOptions {
  /** Replaces the current history entry instead of adding one. */
  replace?: boolean;
  /** Leaves the scroll where it is (a tab, a filter) instead of the top or the `#hash` target. */
  preventScrollReset?: boolean;
  /** Kept in the history entry: `useLocation().state`, back and forward included. */
  state?: unknown;
  /** Shows the new page through `document.startViewTransition` where the browser has it. */
  viewTransition?: boolean;
}

/** What useBlocker's function is asked about a navigation. */
export interface BlockerArgs {
  currentLocation: RouterLocation;
  nextLocation: Omit<RouterLocation, "key">;
  historyAction: "push" | "replace" | "pop";
}

export type BlockerFunction = (args: BlockerArgs) => boolean;

/** What components may ask of the browser's router. The server renders without one. */
export interface Router {
  navigate(to: string, options?: NavigateOptions): Promise<void>;
  /** Back (negative) or forward through history, as the browser's buttons do. */
  go(delta: number): void;
  /** The function asked before each client navigation (one at a time: the latest wins); returns its removal. */
  block(shouldBlock: BlockerFunction): () => void;
  /** Lets the navigation the blocker holds go on. */
  proceed(): void;
  /** Drops the navigation the blocker holds: the page stays. */
  reset(): void;
  /** Fetches a page's data and code ahead of a likely click. */
  prefetch(to: string): void;
  /** Re-runs the current page's loaders and re-renders with their data. */
  revalidate(): Promise<void>;
  /**
   * Submits a form to a page's action without a reload, then shows the page it answers with
   * (action data, loaders re-run) or follows its redirect. "fallback": the browser must submit
   * the form itself (another origin or build, a refusal, a network failure).
   */
  submit(action: string, body: URLSearchParams | FormData, options?: Pick<NavigateOptions, "viewTransition">): Promise<"done" | "fallback">;
  /**
   * The fetcher `key`'s request (useFetcher): the leaf loader's data of `href`, or the answer of
   * its action followed by a revalidation of the page; no history entry, URL or scroll change.
   * A newer request of the same key replaces an older one. Settles once its answer is in the state.
   */
  fetch(key: string, href: string, submission: FetcherSubmission | undefined): Promise<void>;
  /** A component uses the fetcher `key`; once none does, its request is aborted and its state dropped. */
  retainFetcher(key: string): () => void;
  state(): RouterState;
  subscribe(listener: () => void): () => void;
}

export const RouterContext = createContext<Router | null>(null);

const noSubscription = () => () => {};

/** A part of the router's state, re-rendering when it changes; `fallback` on the server. */
export function useRouterState<T>(select: (state: RouterState) => T, fallback: T): T {
  const router = useContext(RouterContext);
  return useSyncExternalStore(
    router ? router.subscribe : noSubscription,
    router ? () => select(router.state()) : () => fallback,
    () => fallback,
  );
}

/** The pending navigation: idle, loading, or submitting with the form's data; idle on the server. */
export function useNavigation(): Navigation {
  return useRouterState((state) => state.navigation, IDLE_NAVIGATION);
}

/** The router, for `navigate()` from an event handler; null on the server. */
export function useRouter(): Router | null {
  return useContext(RouterContext);
}
