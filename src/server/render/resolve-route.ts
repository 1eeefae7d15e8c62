import type { RouteError } from "../../shared/routing/module";
import type { RequestContext } from "../../shared/routing/request";
import type { RouteState } from "../../shared/routing/route-state";
import type { MatchedRoutes, RouteMatch } from "../../shared/routing/route-table";
import { isHttpErrorSignal, isNotFoundSignal, isRedirectSignal, type RedirectStatus, type ResponseHeaders } from "../../shared/routing/signals";
import type { AppRoutes } from "../routing/app-routes";
import { isThenable, type MaybePromise, thenMaybe } from "./maybe-promise";
import { touchingSession } from "./request-context";

export type RouteOutcome =
  | { type: "redirect"; location: string; status: RedirectStatus; headers?: ResponseHeaders }
  | { type: "state"; status: number; state: Omit<RouteState, "styles">; headers?: ResponseHeaders }
  /** A resource route's answer: a web Response, or data sent as JSON (with the status and headers of a signal that stopped it). */
  | { type: "resource"; value: unknown; status?: number; headers?: ResponseHeaders };

export interface ResolveOptions {
  exposeErrors: boolean;
  /** Every real error (never the signals), exactly once; returns the id error reporting gave it. */
  onError: (error: unknown) => string | undefined;
  /** The routes whose loaders run (a data request's `_routes`); every route when absent. */
  loadOnly?: ReadonlySet<string>;
}

export type Settled = { ok: true; data: unknown } | { ok: false; error: unknown } | undefined;

async function settle(pending: PromiseLike<unknown>): Promise<Settled> {
  try {
    return { ok: true, data: await pending };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * The chain's loaders, all started at once, in order; a route without one settles as undefined.
 * A loader that answers synchronously is settled on the spot: no promises for the usual chain
 * (a layout without a loader, a page with a sync one), which measured a visible share of a page.
 */
function runLoaders(
  routes: AppRoutes,
  matches: readonly RouteMatch[],
  context: RequestContext,
  upTo: number,
  only: ReadonlySet<string> | undefined,
): MaybePromise<Settled[]> {
  const settled: Settled[] = new Array(matches.length);
  let pending: Promise<void>[] | undefined;
  for (let depth = 0; depth < upTo; depth++) {
    const match = matches[depth] as RouteMatch;
    if (only && !only.has(match.id)) continue;
    const load = routes.serverHalf(match.id)?.load;
    if (!load) continue;
    let result: unknown;
    try {
      result = touchingSession(context, load);
    } catch (error) {
      settled[depth] = { ok: false, error };
      continue;
    }
    if (!isThenable(result)) {
      settled[depth] = { ok: true, data: result };
      continue;
    }
    pending ??= [];
    pending.push(
      settle(result).then((outcome) => {
        settled[depth] = outcome;
      }),
    );
  }
  return pending ? Promise.all(pending).then(() => settled) : settled;
}

export function routeError(error: unknown, exposeDetails: boolean, eventId: string | undefined): RouteError {
  if (isHttpErrorSignal(error)) return { status: error.status, data: error.data };
  const details: RouteError = exposeDetails
    ? error instanceof Error
      ? { message: error.message, ...(error.stack ? { stack: error.stack } : {}) }
      : { message: String(error) }
    : {};
  if (eventId) details.eventId = eventId;
  return details;
}

/** The nearest route above `depth` with an error component, or null for the platform's plain page. */
export function boundaryAbove(routes: AppRoutes, matches: readonly RouteMatch[], depth: number): string | null {
  for (let i = depth - 1; i >= 0; i--) {
    const id = (matches[i] as RouteMatch).id;
    if (routes.modules.get(id).ErrorBoundary) return id;
  }
  return null;
}

/** Where a chain stopped before its loaders: a middleware's or an action's failure, at the depth of its route. */
export interface EarlyFailure {
  depth: number;
  error: unknown;
}

/**
 * Runs the matched chain's loaders in parallel and turns their results into what to answer.
 * The shallowest route that did not load decides: a redirect, the not-found page, a 4xx from
 * `httpError()`, or its error shown by the nearest error component above it. Real errors are
 * reported, each once. After an early failure only the routes that still render (those down to
 * its error component) load.
 */
export function resolveRoute(
  routes: AppRoutes,
  matched: MatchedRoutes | null,
  context: RequestContext,
  options: ResolveOptions,
  early?: EarlyFailure,
): MaybePromise<RouteOutcome> {
  const found = matched ?? routes.table.notFound();
  if (!matched) {
    context.params = {};
    // The client could not foresee this chain: it gets all of it.
    if (options.loadOnly) options = { ...options, loadOnly: undefined };
  }
  let upTo = found.matches.length;
  if (early) {
    const boundary = boundaryAbove(routes, found.matches, early.depth);
    upTo = boundary === null ? 0 : found.matches.findIndex((match) => match.id === boundary) + 1;
  }
  return thenMaybe(runLoaders(routes, found.matches, context, upTo, options.loadOnly), (settled) => {
    if (early && !settled[early.depth]) settled[early.depth] = { ok: false, error: early.error };
    return outcomeOf(routes, matched, found, settled, context, options);
  });
}

function outcomeOf(
  routes: AppRoutes,
  matched: MatchedRoutes | null,
  found: MatchedRoutes,
  settled: Settled[],
  context: RequestContext,
  options: ResolveOptions,
): MaybePromise<RouteOutcome> {
  const data: Record<string, unknown> = {};
  let failure: { depth: number; error: unknown } | undefined;
  for (let depth = 0; depth < settled.length; depth++) {
    const result = settled[depth];
    if (!result) continue;
    if (result.ok) {
      data[(found.matches[depth] as RouteMatch).id] = result.data;
      continue;
    }
    const { error } = result;
    if (isRedirectSignal(error) || isNotFoundSignal(error)) {
      if (failure) continue;
      if (isRedirectSignal(error)) return { type: "redirect", location: error.location, status: error.status, headers: error.headers };
      // The not-found page, in the root layout; should the root itself say not found, without its data.
      if (matched) return resolveRoute(routes, null, context, options);
      continue;
    }
    // Every failed loader is reported (a 4xx is an answer, not a failure); the shallowest one is shown.
    if (failure) {
      if (!isHttpErrorSignal(error)) options.onError(error);
    } else failure = { depth, error };
  }
  const state = { pattern: found.pattern, matches: found.matches, data };
  if (!failure) return { type: "state", status: matched ? 200 : 404, state };
  const shown = failure.error;
  const boundaryId = boundaryAbove(routes, found.matches, failure.depth);
  if (isHttpErrorSignal(shown)) {
    return { type: "state", status: shown.status, state: { ...state, error: { boundaryId, error: routeError(shown, false, undefined) } }, headers: shown.headers };
  }
  const eventId = options.onError(shown);
  return {
    type: "state",
    status: 500,
    state: { ...state, error: { boundaryId, error: routeError(shown, options.exposeErrors, eventId) } },
  };
}
