import type { RouteState } from "../../shared/routing/route-state";
import type { ClientRoutes } from "./core/client-routes";
import type { RouterEnvironment } from "./core/environment";
import type { RouteData } from "./core/fetch-route-data";
import type { Requests } from "./core/requests";
import { fetchStylesheets } from "./core/stylesheets";
import type { RouterStore } from "./core/router-store";
import type { PrefetchCache } from "./prefetch-cache";

/** What the router's parts (navigation, submission, blocking, prefetch) share: its state and its requests. */
export interface RouterCore {
  env: RouterEnvironment;
  store: RouterStore;
  routes: ClientRoutes;
  data: RouteData;
  diagnostics: boolean;
  requests: Requests;
  prefetched: PrefetchCache;
}

/**
 * How a page request changes history: a new entry, this entry, one reached by back/forward, or
 * none (the page on screen gets new data: a revalidation, or the answer to its own form).
 */
export type HistoryMode = "push" | "replace" | "pop" | "none";

export const idsOf = (state: RouteState) => state.matches.map((match) => match.id);

/** A page's route chunks and the stylesheets the document lacks: a page is committed once both are here, so never unstyled. */
export const pageAssets = ({ routes, env }: RouterCore, state: RouteState, rel: "preload" | "prefetch" = "preload") =>
  Promise.all([routes.load(idsOf(state)), fetchStylesheets(env.document, state.styles, rel)]);

/** The path and query on screen. */
export const currentPath = ({ store }: RouterCore) => store.state.location.pathname + store.state.location.search;

