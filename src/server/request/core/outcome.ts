import type { RenderSettings } from "../../config/render-settings";
import type { RouteState } from "../../../shared/routing/route-state";
import type { RedirectSignal, RedirectStatus, ResponseHeaders } from "../../../shared/routing/signals";

/** What resolving a request came to; a writer in render/ turns it into the HTTP answer. */
export type RouteOutcome =
  | { type: "redirect"; location: string; status: RedirectStatus; headers?: ResponseHeaders }
  /** A page to show: the route's own, the not-found page (pattern NOT_FOUND_ROUTE), or an error in an error component. */
  | { type: "state"; status: number; state: Omit<RouteState, "styles">; headers?: ResponseHeaders }
  /** A resource route's answer: a web Response, or data sent as JSON (with the status and headers of a signal that stopped it). */
  | { type: "resource"; value: unknown; status?: number; headers?: ResponseHeaders };

/** The one place a `redirect()` becomes an outcome; resolve() turns it into a 303 after an action. */
export function redirectOutcome(signal: RedirectSignal): RouteOutcome {
  return { type: "redirect", location: signal.location, status: signal.status, headers: signal.headers };
}

/** Where a chain stopped before its loaders: a middleware's or an action's failure, at the depth of its route. */
export interface EarlyFailure {
  depth: number;
  error: unknown;
}

export interface ResolveOptions {
  /** Whether error pages show the message and stack: all resolving reads of the app's render settings. */
  settings: Pick<RenderSettings, "exposeErrors">;
  /** Every real error (never the signals), exactly once; returns the id error reporting gave it. */
  onError: (error: unknown) => string | undefined;
  /** The routes whose loaders run (a data request's `_routes`); every route when absent. */
  loadOnly?: ReadonlySet<string>;
}

export type PageOutcome = Extract<RouteOutcome, { type: "state" }>;
export type RedirectOutcome = Extract<RouteOutcome, { type: "redirect" }>;
export type ResourceOutcome = Extract<RouteOutcome, { type: "resource" }>;
