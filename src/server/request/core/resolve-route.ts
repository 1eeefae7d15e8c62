import type { RouteError } from "../../../shared/routing/module";
import type { RequestContext } from "../../../shared/routing/request";
import type { MatchedRoutes, RouteMatch } from "../../../shared/routing/route-table";
import { isHttpErrorSignal, isNotFoundSignal, isRedirectSignal } from "../../../shared/routing/signals";
import type { AppRoutes } from "../../routing/app-routes";
import { isThenable, type MaybePromise, thenMaybe } from "./maybe-promise";
import { type EarlyFailure, type ResolveOptions, type RouteOutcome, redirectOutcome } from "./outcome";
import { PageRequestContext } from "./request-context";

export type { EarlyFailure, ResolveOptions, RouteOutcome } from "./outcome";

export type Settled = { ok: true; data: unknown } | { ok: false; error: unknown } | undefined;

async function loaderResult(pending: PromiseLike<unknown>): Promise<Settled> {
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
      // Through the request's own context when it is one (tests may pass another RequestContext).
      result = context instanceof PageRequestContext ? context.touchingSession(load) : load(context);
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
      loaderResult(result).then((outcome) => {
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

/** Stands for "show the not-found page" until resolveRoute, the one place that shows it, does. */
const NOT_FOUND = Symbol("not found");

/**
 * Runs the matched chain's loaders in parallel and turns their results into what to answer.
 * The shallowest route that did not load decides: a redirect, the not-found page, a 4xx from
 * `httpError()`, or its error shown by the nearest error component above it. Real errors are
 * reported, each once. An early failure (a middleware's or an action's) that is a redirect or
 * `notFound()` answers at once; any other shows with only the loaders of the routes that still
 * render (those down to its error component).
 */
export function resolveRoute(
  routes: AppRoutes,
  matched: MatchedRoutes | null,
  context: RequestContext,
  options: ResolveOptions,
  early?: EarlyFailure,
): MaybePromise<RouteOutcome> {
  const outcome = early && isNotFoundSignal(early.error) ? NOT_FOUND : loadChain(routes, matched, context, options, early);
  // Without a closure on the usual, synchronous path.
  if (outcome instanceof Promise) return outcome.then((resolved) => orNotFoundPage(resolved, routes, context, options));
  return orNotFoundPage(outcome, routes, context, options);
}

/** The not-found page, in the root layout, in place of the chain that said not found. */
function orNotFoundPage(resolved: RouteOutcome | typeof NOT_FOUND, routes: AppRoutes, context: RequestContext, options: ResolveOptions): MaybePromise<RouteOutcome> {
  return resolved === NOT_FOUND ? resolveRoute(routes, null, context, options) : resolved;
}

function loadChain(
  routes: AppRoutes,
  matched: MatchedRoutes | null,
  context: RequestContext,
  options: ResolveOptions,
  early?: EarlyFailure,
): MaybePromise<RouteOutcome | typeof NOT_FOUND> {
  if (early && isRedirectSignal(early.error)) return redirectOutcome(early.error);
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
    return outcomeOf(routes, matched, found, settled, options);
  });
}

function outcomeOf(
  routes: AppRoutes,
  matched: MatchedRoutes | null,
  found: MatchedRoutes,
  settled: Settled[],
  options: ResolveOptions,
): RouteOutcome | typeof NOT_FOUND {
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
      if (isRedirectSignal(error)) return redirectOutcome(error);
      // Should the not-found page's own root say not found, it shows without the root's data.
      if (matched) return NOT_FOUND;
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
    state: { ...state, error: { boundaryId, error: routeError(shown, options.settings.exposeErrors, eventId) } },
  };
}
