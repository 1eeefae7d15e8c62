import type { RouteError } from "./module";
import type { RouteMatch } from "./route-table";

/**
 * What a page shows: the matched chain, each route's loader data and an error, if any. The
 * server renders it, hands it to the browser for hydration, and answers navigations with it.
 */
export interface RouteState {
  /** Route pattern or `not_found`: names the page's metrics and transactions. */
  pattern: string;
  matches: RouteMatch[];
  /** Loader data by route id. */
  data: Record<string, unknown>;
  /**
   * A failed route's error, shown by the error component of `boundaryId` in its outlet, with
   * the routes below not rendered; `boundaryId` null means no route has one: the platform's
   * plain error page stands in for the whole body.
   */
  error?: { boundaryId: string | null; error: RouteError };
  /** What the page's action returned, when this state answers a POST (see useActionData). */
  actionData?: unknown;
  /** Stylesheets of the entry and of the matched routes' chunks. */
  styles: string[];
}

/** A resolved state with its stylesheets: fields listed, not spread (this runs for every page, and spreading measured slow). */
export function withStyles(state: Omit<RouteState, "styles">, styles: string[]): RouteState {
  return { pattern: state.pattern, matches: state.matches, data: state.data, error: state.error, actionData: state.actionData, styles };
}
