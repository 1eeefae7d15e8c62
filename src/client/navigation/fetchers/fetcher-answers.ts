import type { RouteError } from "../../../shared/routing/module";
import type { BrowserRouterState as State } from "../core/router-store";
import { withFetcher } from "../core/transitions";

/*
 * The fetchers' transitions once their request has answered (../core/transitions has the rest):
 * here, in the chunk their request is in, as only pages with a fetcher need them.
 */

const FAILED: RouteError = { message: "the request failed" };

/** What the fetcher's request answered; after an action, it stays loading (with what it sent) until the page's data is as fresh as `waitFor`. */
export function fetcherSettle(state: State, key: string, answer: { data: unknown; error: RouteError | undefined; formData: FormData | undefined; waitFor: number | undefined }): State {
  const { data, error, formData, waitFor } = answer;
  const waiting = waitFor !== undefined && state.freshAsOf < waitFor;
  return withFetcher(state, key, () => (waiting ? { state: "loading", data, error, formData, waitFor } : { state: "idle", data, error, formData: undefined }));
}

/** The fetcher's action redirected: the page navigates, the fetcher is done. */
export function fetcherRedirect(state: State, key: string): State {
  return withFetcher(state, key, (fetcher) => ({ ...fetcher, state: "idle", formData: undefined }));
}

/** The fetcher's request failed (a resource route's answer could not be read). */
export function fetcherFail(state: State, key: string): State {
  return withFetcher(state, key, (fetcher) => ({ ...fetcher, state: "idle", formData: undefined, error: FAILED }));
}
