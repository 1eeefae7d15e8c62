import { DEFERRED_DATA_TYPE } from "../../../shared/deferred/deferred-markers";
import { BUILD_HEADER, type DataAnswer, dataUrl } from "../../../shared/routing/data-request";
import { withRequestedRoutes } from "../../../shared/routing/requested-routes";
import { importWithRetry } from "../../recovery/import-with-retry";

/** What a navigation does with a data request's answer; `reload` means load the page the old way. */
export type RouteAnswer = DataAnswer | { kind: "reload" };

function isDataAnswer(value: unknown, buildId: string): value is DataAnswer {
  if (typeof value !== "object" || value === null) return false;
  const answer = value as Partial<DataAnswer>;
  if (answer.build !== buildId) return false;
  if (answer.kind === "redirect") return typeof answer.location === "string";
  return answer.kind === "state" && typeof answer.state === "object" && answer.state !== null;
}

/** A page's data requests, made with the environment's fetch for this build. */
export interface RouteData {
  /**
   * Asks the server for a page's data. Anything but a data answer from this same build (another
   * build refusing us, a proxy's error page, a login redirect) means a full page load, so that
   * old code never renders new data. A network failure rejects.
   */
  load(url: URL, signal?: AbortSignal, routes?: readonly string[]): Promise<RouteAnswer>;
  /**
   * Submits a form to a page's action: the answer is the page after it (its action data and
   * fresh loader data) or where to go. Anything else (a refusal, another build) means the
   * browser should submit the form itself.
   */
  submit(url: URL, body: URLSearchParams | FormData, signal?: AbortSignal, routes?: readonly string[]): Promise<RouteAnswer>;
}

export function routeData(fetch: typeof globalThis.fetch, buildId: string): RouteData {
  // A URL, never a path resolved again: a path starting with // would read as another host.
  const request = async (url: URL, init: RequestInit, routes: readonly string[] | undefined): Promise<RouteAnswer> => {
    const response = await fetch(withRequestedRoutes(dataUrl(url.pathname, url.search), routes), {
      ...init,
      headers: { [BUILD_HEADER]: buildId, Accept: "application/json" },
      credentials: "same-origin",
    });
    const type = response.headers.get("Content-Type");
    // Deferred values stream in the same answer: it resolves once the awaited part is read.
    if (type?.startsWith(DEFERRED_DATA_TYPE) && response.body) {
      const streamed: unknown = await importWithRetry(() => import("./stream-route-data")).then((decoder) => decoder.readDataStream(response.body as ReadableStream<Uint8Array>));
      return isDataAnswer(streamed, buildId) ? streamed : { kind: "reload" };
    }
    if (!type?.startsWith("application/json")) return { kind: "reload" };
    const body: unknown = await response.json().catch(() => null);
    return isDataAnswer(body, buildId) ? body : { kind: "reload" };
  };
  return {
    load: (url, signal, routes) => request(url, { signal }, routes),
    submit: (url, body, signal, routes) => request(url, { method: "POST", body, signal }, routes),
  };
}
