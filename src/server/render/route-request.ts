import type { Context } from "koa";
import type { ActionServices } from "../../shared/routing/request";
import type { MatchedRoutes } from "../../shared/routing/route-table";
import { NOT_FOUND_ROUTE } from "../../shared/sentry/reporting-rules";
import { setRouteLabel } from "../http/request-log";
import type { RequestMonitoring, RequestReport } from "../monitoring/request-monitoring";
import type { AppRoutes } from "../routing/app-routes";
import { type MaybePromise, thenMaybe } from "./maybe-promise";
import { PageRequestContext } from "./request-context";
import { type RouteOutcome, resolveRoute } from "./resolve-route";
import { runAction, runMiddleware, runResource, stoppedByMiddleware } from "./route-handlers";
import { type RouteHandler, type RouteKind, routeKind } from "./route-kind";

export interface RouteRequestOptions {
  routes: AppRoutes;
  diagnostics: boolean;
  /** Development only: error pages show the message and stack. */
  exposeErrors: boolean;
  /** Every real error (not the signals) is logged here and reported to monitoring, exactly once. */
  logError: (error: unknown, ctx: Context) => void;
  monitoring?: RequestMonitoring;
  /** What loaders and actions may use besides the request (the feedback service). */
  services: ActionServices;
  /** The routes whose loaders run (a data request's `_routes`); every route when absent. */
  loadOnly?: ReadonlySet<string>;
}

export interface RouteRequest {
  outcome: RouteOutcome;
  report: RequestReport | undefined;
  /** Logs and reports an error of this request; returns its event id. */
  onError: (error: unknown) => string | undefined;
  context: PageRequestContext;
}

/** Names the request by route pattern: log, metrics, transaction. */
export function labelRoute(ctx: Context, report: RequestReport | undefined, pattern: string): void {
  setRouteLabel(ctx.state, pattern);
  report?.nameRoute(ctx.method, pattern);
}

interface MatchState {
  outpostMatch?: { pathname: string; matched: MatchedRoutes | null; kind: RouteKind };
}

/** The request's route chain and what answers it, matched once per request and kept on `ctx.state`. */
export function matchRequest(ctx: Context, pathname: string, routes: AppRoutes, diagnostics: boolean): { matched: MatchedRoutes | null; kind: RouteKind } {
  const state = ctx.state as MatchState;
  const known = state.outpostMatch;
  if (known?.pathname === pathname) return known;
  const matched = routes.table.match(pathname, { diagnostics });
  state.outpostMatch = { pathname, matched, kind: routeKind(routes, matched) };
  return state.outpostMatch;
}

/**
 * The one resolver of a page, data or resource request: match the path, name the request by
 * route pattern, run the middleware root to leaf, then the action (POST) or a resource route's
 * handler, and the loaders. Null when the route does not take the method (405). `url` is the
 * page's URL, built only for code that reads it.
 */
export function resolveRouteRequest(ctx: Context, pathname: string, url: () => URL, options: RouteRequestOptions): MaybePromise<RouteRequest | null> {
  const { routes } = options;
  const { matched, kind } = matchRequest(ctx, pathname, routes, options.diagnostics);
  const handler = kind.handlerFor(ctx.method);
  if (handler === null) return null;
  const report = options.monitoring?.forRequest(ctx.req);
  labelRoute(ctx, report, matched?.pattern ?? NOT_FOUND_ROUTE);
  const onError = (error: unknown): string | undefined => {
    options.logError(error, ctx);
    return report?.captureError(error);
  };
  const resolve = { exposeErrors: options.exposeErrors, onError, loadOnly: options.loadOnly };
  const context = new PageRequestContext(ctx, matched?.matches[0]?.params ?? {}, url, options.services);
  const chain = matched ?? routes.table.notFound();
  // Only a store that fetches sessions (Redis) may make a request wait here, and only for a chain that uses it.
  const prepared = context.prepareSession(chain.pattern);
  const middleware = prepared ? prepared.then(() => runMiddleware(routes, chain, context)) : runMiddleware(routes, chain, context);
  const outcome = thenMaybe(middleware, (early): MaybePromise<RouteOutcome> => {
    if (kind.resource) return runResource(handler as RouteHandler, context, resolve, early);
    if (early) return stoppedByMiddleware(routes, matched, context, resolve, early);
    if (handler) return runAction(routes, matched as MatchedRoutes, handler, ctx, context, resolve);
    return resolveRoute(routes, matched, context, resolve);
  });
  return thenMaybe(outcome, (resolved) => {
    // A POST's redirect is always to a GET (post/redirect/get): a 307 would repeat the POST.
    if (handler && resolved.type === "redirect" && !kind.resource) resolved.status = 303;
    // A notFound() makes this the not-found page, for reporting as for the visitor.
    if (matched && resolved.type === "state" && resolved.state.pattern === NOT_FOUND_ROUTE) labelRoute(ctx, report, NOT_FOUND_ROUTE);
    return { outcome: resolved, report, onError, context };
  });
}
