import type { Params } from "../../shared/routing/match";
import type { RouteModules, ShouldRevalidateArgs } from "../../shared/routing/module";
import type { RouteState } from "../../shared/routing/route-state";
import type { RouteMatch } from "../../shared/routing/route-table";
import { type BrowserRouterState, isStale } from "./core/router-store";

export type { ShouldRevalidateArgs };

/** Why the browser asks for a page's data. */
export type DataCause = "navigation" | "action" | "revalidate";

/** Why a request for the page's data is made now; `revalidating` when it reloads the page on screen. */
export function dataCause(state: BrowserRouterState, revalidating: boolean): DataCause {
  if (isStale(state)) return state.staleBy;
  return revalidating ? "revalidate" : "navigation";
}

export interface RevalidationInput {
  current: RouteState;
  currentUrl: URL;
  next: readonly RouteMatch[];
  nextUrl: URL;
  cause: DataCause;
  /** The current page's modules: each route still on screen is loaded. */
  modules: RouteModules;
}

const sameParams = (a: Params, b: Params): boolean => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
};

/**
 * The routes of the next page whose loaders must run, or undefined for all of them. A route new
 * to the page always loads; one already shown reloads when its params or the search changed,
 * after an action or on revalidate(), unless its module's `shouldRevalidate` says otherwise.
 */
export function routesToLoad({ current, currentUrl, next, nextUrl, cause, modules }: RevalidationInput): string[] | undefined {
  // A page showing an error may lack the data of any route: load it whole.
  if (current.error) return undefined;
  const searchChanged = currentUrl.search !== nextUrl.search;
  const ids: string[] = [];
  let diverged = false;
  for (let depth = 0; depth < next.length; depth++) {
    const match = next[depth] as RouteMatch;
    const shown = current.matches[depth];
    // Below a route that changed, every route is new too.
    diverged ||= !shown || shown.id !== match.id;
    if (diverged || !shown) {
      ids.push(match.id);
      continue;
    }
    const defaultShouldRevalidate = cause !== "navigation" || searchChanged || !sameParams(shown.params, match.params);
    const decide = modules.get(match.id).shouldRevalidate;
    const args: ShouldRevalidateArgs = { currentUrl, currentParams: shown.params, nextUrl, nextParams: match.params, defaultShouldRevalidate };
    if (cause === "action") args.formMethod = "POST";
    if (decide ? decide(args) : defaultShouldRevalidate) ids.push(match.id);
  }
  return ids.length === next.length ? undefined : ids;
}
