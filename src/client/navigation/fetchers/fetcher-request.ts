import type { FetchAnswer, FetcherSubmission } from "../../../shared/navigation/fetcher-request";
import { navigationTarget } from "../../../shared/navigation/navigation-target";
import type { ClientRoutes } from "../client-routes";
import { fetchRouteData, submitRouteData } from "../fetch-route-data";

export interface FetcherDeps {
  routes: ClientRoutes;
  buildId: string;
  diagnostics: boolean;
  /** Follows a redirect as a navigation. */
  follow(location: string, from: URL): void;
  /** Marks the page's data out of date and revalidates it; returns the generation to wait for. */
  invalidate(): number;
}

/** A resource route's answer: its JSON, or its text. */
async function resourceAnswer(url: URL, submission: FetcherSubmission | undefined, signal: AbortSignal): Promise<FetchAnswer & { kind: "data" }> {
  const init: RequestInit = submission ? { method: "POST", body: submission.body, signal } : { signal };
  const response = await fetch(url, { ...init, credentials: "same-origin" });
  const json = response.headers.get("Content-Type")?.includes("json");
  const data: unknown = await (json ? response.json() : response.text());
  return { kind: "data", data, ...(response.ok ? {} : { error: { status: response.status, data } }) };
}

/**
 * A fetcher's request. A load asks only for the leaf route's loader; a submission runs the
 * action with no loader (`_routes` empty), then revalidates the page on screen. Either goes
 * through the data request, so the build check, CSRF defence and redirects are the navigations'.
 */
export async function fetcherRequest(
  deps: FetcherDeps,
  href: string,
  submission: FetcherSubmission | undefined,
  signal: AbortSignal,
): Promise<FetchAnswer> {
  const target = navigationTarget(href, window.location.href);
  if (target.kind !== "client") return { kind: "fallback" };
  const { url } = target;
  if (deps.routes.isResource(url.pathname, deps.diagnostics)) {
    const answer = await resourceAnswer(url, submission, signal);
    return submission ? { ...answer, revalidation: deps.invalidate() } : answer;
  }
  const leaf = deps.routes.table.match(url.pathname, { diagnostics: deps.diagnostics })?.matches.at(-1)?.id;
  const answer = submission
    ? await submitRouteData(url, deps.buildId, submission.body, signal, [])
    : await fetchRouteData(url, deps.buildId, signal, leaf ? [leaf] : undefined);
  if (answer.kind === "reload") return { kind: "fallback" };
  if (answer.kind === "redirect") {
    deps.follow(answer.location, url);
    return { kind: "redirected" };
  }
  const { state } = answer;
  const data = submission ? state.actionData : state.data[state.matches.at(-1)?.id ?? ""];
  return {
    kind: "data",
    data,
    ...(state.error ? { error: state.error.error } : {}),
    ...(submission ? { revalidation: deps.invalidate() } : {}),
  };
}
