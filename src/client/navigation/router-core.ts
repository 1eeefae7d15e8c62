import type { RouteState } from "../../shared/routing/route-state";
import type { ClientRoutes } from "./core/client-routes";
import type { RouterEnvironment } from "./core/environment";
import type { RouteData } from "./core/fetch-route-data";
import type { Requests } from "./core/requests";
import type { RouterStore } from "./core/router-store";
import { importWithRetry } from "../recovery/import-with-retry";
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

export type { HistoryMode } from "./history-entry";

export const idsOf = (state: RouteState) => state.matches.map((match) => match.id);

export type PageLanding = typeof import("./page-landing");

let landing: Promise<PageLanding> | undefined;

/**
 * The landing chunk, fetched once (again after a failure: a later page may reach a replica that
 * has it). Asked for as a page request starts (preloadCode), so it comes alongside the data.
 */
export function landingCode(): Promise<PageLanding> {
  landing ??= importWithRetry(() => import("./page-landing")).catch((error: unknown) => {
    landing = undefined;
    throw error;
  });
  return landing;
}

/**
 * A page's route chunks and the stylesheets the document lacks: a page is committed once both
 * are here, so never unstyled. Resolves with the code that shows it (the landing chunk).
 */
export async function pageAssets({ routes, env }: RouterCore, state: RouteState, rel: "preload" | "prefetch" = "preload"): Promise<PageLanding> {
  const code = landingCode();
  const stylesheets = code.then((module) => module.fetchStylesheets(env.document, state.styles, rel));
  await Promise.all([routes.load(idsOf(state)), stylesheets]);
  return code;
}

/** The path and query on screen. */
export const currentPath = ({ store }: RouterCore) => store.state.location.pathname + store.state.location.search;

