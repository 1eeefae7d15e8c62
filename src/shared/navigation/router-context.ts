import { createContext, useContext, useMemo, useSyncExternalStore } from "react";
import type { FetcherSubmission } from "./fetcher-request";
import type { FetcherStatus, Navigation, RouterState } from "./router-state";

export interface NavigateOptions {
  replace?: boolean;
}

/** What components may ask of the browser's router. The server renders without one. */
export interface Router {
  navigate(to: string, options?: NavigateOptions): Promise<void>;
  /** Fetches a page's data and code ahead of a likely click. */
  prefetch(to: string): void;
  /** Re-runs the current page's loaders and re-renders with their data. */
  revalidate(): Promise<void>;
  /**
   * Submits a form to a page's action without a reload, then shows the page it answers with
   * (action data, loaders re-run) or follows its redirect. "fallback": the browser must submit
   * the form itself (another origin or build, a refusal, a network failure).
   */
  submit(action: string, body: URLSearchParams | FormData): Promise<"done" | "fallback">;
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

const IDLE: Navigation = { state: "idle" };
const NO_FETCHERS: ReadonlyMap<string, FetcherStatus> = new Map();
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
  return useRouterState((state) => state.navigation, IDLE);
}

/** The fetchers with a request under way (submitting or loading), each with its key. */
export function useFetchers(): (FetcherStatus & { key: string })[] {
  const fetchers = useRouterState((state) => state.fetchers, NO_FETCHERS);
  return useMemo(() => [...fetchers].filter(([, fetcher]) => fetcher.state !== "idle").map(([key, fetcher]) => ({ ...fetcher, key })), [fetchers]);
}

/** The router, for `navigate()` from an event handler; null on the server. */
export function useRouter(): Router | null {
  return useContext(RouterContext);
}

const noRevalidation = () => Promise.resolve();

/** `revalidate()` re-runs the page's loaders (each route's shouldRevalidate may decline); a no-op on the server. */
export function useRevalidator(): { revalidate(): Promise<void> } {
  const router = useContext(RouterContext);
  return { revalidate: router ? router.revalidate : noRevalidation };
}
