import { BUILD_HEADER, type DataAnswer, dataUrl } from "../../shared/routing/data-request";

/** What a navigation does with a data request's answer; `reload` means load the page the old way. */
export type RouteAnswer = DataAnswer | { kind: "reload" };

function isDataAnswer(value: unknown, buildId: string): value is DataAnswer {
  if (typeof value !== "object" || value === null) return false;
  const answer = value as Partial<DataAnswer>;
  if (answer.build !== buildId) return false;
  if (answer.kind === "redirect") return typeof answer.location === "string";
  return answer.kind === "state" && typeof answer.state === "object" && answer.state !== null;
}

/**
 * Asks the server for a page's data. Anything but a data answer from this same build (another
 * build refusing us, a proxy's error page, a login redirect) means a full page load, so that
 * old code never renders new data. A network failure rejects.
 */
export async function fetchRouteData(path: string, buildId: string, signal?: AbortSignal): Promise<RouteAnswer> {
  const url = new URL(path, window.location.href);
  const response = await fetch(dataUrl(url.pathname, url.search), {
    headers: { [BUILD_HEADER]: buildId, Accept: "application/json" },
    credentials: "same-origin",
    signal,
  });
  if (!response.headers.get("Content-Type")?.startsWith("application/json")) return { kind: "reload" };
  const body: unknown = await response.json().catch(() => null);
  return isDataAnswer(body, buildId) ? body : { kind: "reload" };
}
