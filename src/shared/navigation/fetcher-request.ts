import type { RouteError } from "../routing/module";

/** A fetcher's submission to a page's action (POST: the only method page actions take). */
export interface FetcherSubmission {
  body: URLSearchParams | FormData;
}

/**
 * What a fetcher's request came to: data (a loader's, or the action's with the data generation
 * the page must reach, see Router.freshAsOf), a redirect the router followed, or "fallback"
 * when only the browser itself can do it (another build, another origin).
 */
export type FetchAnswer =
  | { kind: "data"; data: unknown; error?: RouteError; revalidation?: number }
  | { kind: "redirected" }
  | { kind: "fallback" };
