import type { RouteState } from "../../shared/routing/route-state";
import type { Blocking } from "./blocking-state";
import type { ClientRoutes } from "./client-routes";
import type { DataFreshness } from "./data-freshness";
import type { RouterEnvironment } from "./environment";
import type { RouteData } from "./fetch-route-data";
import type { PrefetchCache } from "./prefetch-cache";
import type { Requests } from "./requests";
import type { RouterStore } from "./router-store";

/** What the router's parts (navigation, submission, fetchers) share: its state and its requests. */
export interface RouterCore {
  env: RouterEnvironment;
  store: RouterStore;
  routes: ClientRoutes;
  data: RouteData;
  diagnostics: boolean;
  requests: Requests;
  prefetched: PrefetchCache;
  freshness: DataFreshness;
  blocking: Blocking;
}

/**
 * How a page request changes history: a new entry, this entry, one reached by back/forward, or
 * none (the page on screen gets new data: a revalidation, or the answer to its own form).
 */
export type HistoryMode = "push" | "replace" | "pop" | "none";

export const idsOf = (state: RouteState) => state.matches.map((match) => match.id);

/** The path and query on screen. */
export const currentPath = ({ store }: RouterCore) => store.state.location.pathname + store.state.location.search;

/**
 * The router's one way out: the browser loads `href` itself (another origin, another build, a
 * network failure, a resource route, a redirect loop), and shows what happened.
 */
export const leave = ({ env }: RouterCore, href: string): void => env.location.assign(href);
