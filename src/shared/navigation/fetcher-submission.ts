import type { RouteError } from "../routing/module";

/** A fetcher's submission to a page's action (POST: the only method page actions take). */
export interface FetcherSubmission {
  formData: FormData;
}

/**
 * What a fetcher's request came to: data (a loader's, or the action's with the data generation
 * the page must reach, see RouterState.freshAsOf), a redirect the router followed, or "left" when
 * only the browser itself could do it (another build, another origin) and the page is going.
 */
export type FetchAnswer =
  | { kind: "data"; data: unknown; error?: RouteError; revalidation?: number }
  | { kind: "redirected" }
  | { kind: "left" };
