import { createContext, useContext, useSyncExternalStore } from "react";
import type { FetchAnswer, FetcherSubmission } from "./fetcher-request";

export interface NavigationState {
  state: "idle" | "loading";
  /** Where the pending navigation goes. */
  location?: string;
}

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
   * A fetcher's request (useFetcher): the leaf loader's data of `href`, or the answer of its
   * action followed by a revalidation of the page; no history entry, URL or scroll change.
   */
  fetch(href: string, submission: FetcherSubmission | undefined, signal: AbortSignal): Promise<FetchAnswer>;
  /** How many actions (and revalidate() calls) the data on screen reflects; changes with the page's state. */
  freshAsOf(): number;
  subscribe(listener: () => void): () => void;
  navigation(): NavigationState;
}

export const RouterContext = createContext<Router | null>(null);

const IDLE: NavigationState = { state: "idle" };
const noSubscription = () => () => {};

/** Whether a navigation is pending, and to where: idle on the server. */
export function useNavigation(): NavigationState {
  const router = useContext(RouterContext);
  return useSyncExternalStore(
    router ? router.subscribe : noSubscription,
    router ? router.navigation : () => IDLE,
    () => IDLE,
  );
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
