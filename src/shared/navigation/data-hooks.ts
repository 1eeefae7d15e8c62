import { useContext, useMemo } from "react";
import { RouterContext, useRouterState } from "./router-context";
import type { FetcherStatus } from "./router-state";

// Apart from the router's context, which every page's first chunk holds: only some pages use these.
const NO_FETCHERS: ReadonlyMap<string, FetcherStatus> = new Map();

/** The fetchers with a request under way (submitting or loading), each with its key. */
export function useFetchers(): (FetcherStatus & { key: string })[] {
  const fetchers = useRouterState((state) => state.fetchers, NO_FETCHERS);
  return useMemo(() => [...fetchers].filter(([, fetcher]) => fetcher.state !== "idle").map(([key, fetcher]) => ({ ...fetcher, key })), [fetchers]);
}

const noRevalidation = () => Promise.resolve();

/** `revalidate()` re-runs the page's loaders (each route's shouldRevalidate may decline); a no-op on the server. */
export function useRevalidator(): { revalidate(): Promise<void> } {
  const router = useContext(RouterContext);
  return { revalidate: router ? router.revalidate : noRevalidation };
}
