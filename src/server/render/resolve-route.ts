import type { Params } from "../../shared/routing/match";
import type { LoaderContext, RouteError } from "../../shared/routing/module";
import type { RouteState } from "../../shared/routing/route-state";
import type { MatchedRoutes, RouteMatch } from "../../shared/routing/route-table";
import { isNotFoundSignal, isRedirectSignal, type RedirectStatus } from "../../shared/routing/signals";
import type { AppRoutes } from "../routing/app-routes";
import { isThenable, type MaybePromise, thenMaybe } from "./maybe-promise";

export type RouteOutcome =
  | { type: "redirect"; location: string; status: RedirectStatus }
  | { type: "state"; status: number; state: Omit<RouteState, "styles"> };

export interface ResolveOptions {
  exposeErrors: boolean;
  /** Every real error (never the signals), exactly once; returns the id error reporting gave it. */
  onError: (error: unknown) => string | undefined;
}

type Settled = { ok: true; data: unknown } | { ok: false; error: unknown } | undefined;

/** Made on the loader's first read of `url`: most loaders never look at it, and parsing is a measurable share of a page. */
class RequestLoaderContext implements LoaderContext {
  readonly params: Params;
  readonly #url: () => URL;

  constructor(params: Params, url: () => URL) {
    this.params = params;
    this.#url = url;
  }

  get url(): URL {
    return this.#url();
  }
}

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
function runLoaders(routes: AppRoutes, matches: readonly RouteMatch[], url: () => URL): MaybePromise<Settled[]> {
  const settled: Settled[] = new Array(matches.length);
  let pending: Promise<void>[] | undefined;
  for (let depth = 0; depth < matches.length; depth++) {
    const match = matches[depth] as RouteMatch;
    const load = routes.serverHalf(match.id)?.load;
    if (!load) continue;
    let result: unknown;
    try {
      result = load(new RequestLoaderContext(match.params, url));
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

/**
 * Runs the matched chain's loaders in parallel and turns their results into what to answer.
 * The shallowest route that did not load decides: a redirect, the not-found page, or its error
 * shown by the nearest error component above it. Real errors are reported, each once.
 */
export function resolveRoute(
  routes: AppRoutes,
  matched: MatchedRoutes | null,
  url: () => URL,
  options: ResolveOptions,
): MaybePromise<RouteOutcome> {
  const found = matched ?? routes.table.notFound();
  return thenMaybe(runLoaders(routes, found.matches, url), (settled) => outcomeOf(routes, matched, found, settled, url, options));
}

function outcomeOf(
  routes: AppRoutes,
  matched: MatchedRoutes | null,
  found: MatchedRoutes,
  settled: Settled[],
  url: () => URL,
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
      if (isRedirectSignal(error)) return { type: "redirect", location: error.location, status: error.status };
      // The not-found page, in the root layout; should the root itself say not found, without its data.
      if (matched) return resolveRoute(routes, null, url, options);
      continue;
    }
    // Every failed loader is reported; the shallowest one is shown (and reported below, for its event id).
    if (failure) options.onError(error);
    else failure = { depth, error };
  }
  const state = { pattern: found.pattern, matches: found.matches, data };
  if (!failure) return { type: "state", status: matched ? 200 : 404, state };
  const eventId = options.onError(failure.error);
  const boundaryId = boundaryAbove(routes, found.matches, failure.depth);
  return {
    type: "state",
    status: 500,
    state: { ...state, error: { boundaryId, error: routeError(failure.error, options.exposeErrors, eventId) } },
  };
}
