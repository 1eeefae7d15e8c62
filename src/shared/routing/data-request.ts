import type { RedirectStatus } from "./signals";
import type { RouteState } from "./route-state";

/**
 * Client navigation asks for a page's data at `DATA_PREFIX + pathname + search`, sending its
 * build id. One request returns the whole matched chain's loader data.
 */
const DATA_PREFIX = "/__data";
export const BUILD_HEADER = "X-Outpost-Build";

export type DataAnswer =
  | { kind: "state"; build: string; status: number; state: RouteState }
  /** Not an HTTP redirect: fetch would follow it and the browser could not tell. */
  | { kind: "redirect"; build: string; status: RedirectStatus; location: string };

export function dataUrl(pathname: string, search: string): string {
  return DATA_PREFIX + pathname + search;
}

/** The page path a data request is for, or null when the path is no data request. */
export function pagePathOf(path: string): string | null {
  if (path === DATA_PREFIX) return "/";
  return path.startsWith(`${DATA_PREFIX}/`) ? path.slice(DATA_PREFIX.length) : null;
}
