import type { Context, Middleware } from "koa";
import { pagePathOf } from "../../shared/routing/data-request";
import type { MatchedRoutes } from "../../shared/routing/route-table";
import { behindGuards, SAFE_METHODS } from "../http/state-changing";
import type { AppRoutes } from "../routing/app-routes";
import { type RequestedRoutes, takeRequestedRoutes } from "./requested-routes";
import { type RouteHandler, type RouteKind, routeKind } from "./route-kind";

/**
 * What a page-path request is, decided once: a navigation's data request (JSON), a resource
 * route, a page's action, or a document (a page, or the not-found page).
 */
export type RequestKind = "document" | "data" | "resource" | "action";

export interface ClassifiedRequest {
  kind: RequestKind;
  /** The page's path: the URL's, or a data request's without its prefix. */
  pagePath: string;
  /** The route chain the page path matched; null for the not-found page. */
  matched: MatchedRoutes | null;
  /** What the chain's deepest route is and which methods it takes (a 405's Allow). */
  route: RouteKind;
  /**
   * The code this method runs: the action or a resource route's handler; undefined for a page
   * read (loaders only); null when the route does not take the method (405).
   */
  handler: RouteHandler | undefined | null;
  /** A data request's `_routes` (taken out of its query); undefined for the other kinds. */
  requested: RequestedRoutes | undefined;
}

export interface ClassifyOptions {
  routes: AppRoutes;
  diagnostics: boolean;
}

/** Matches the page path once and says what answers it; a data request's `_routes` leave its query here. */
export function classify(ctx: Context, { routes, diagnostics }: ClassifyOptions): ClassifiedRequest {
  const dataPath = pagePathOf(ctx.path);
  const pagePath = dataPath ?? ctx.path;
  const matched = routes.table.match(pagePath, { diagnostics });
  const route = routeKind(routes, matched);
  const handler = route.handlerFor(ctx.method);
  const kind: RequestKind = dataPath !== null ? "data" : route.resource ? "resource" : handler ? "action" : "document";
  const requested = dataPath !== null ? takeRequestedRoutes(ctx, routes) : undefined;
  return { kind, pagePath, matched, route, handler, requested };
}

interface ClassifiedState {
  outpostRequest?: ClassifiedRequest;
}

/** What runs once the request is classified: it receives the classification, never matches again. */
export type ClassifiedHandler = (ctx: Context, request: ClassifiedRequest) => unknown;

/**
 * The page path's entry: classifies the request, then hands it to `handler`, a state-changing
 * request behind `guards` (CSRF, the body parser, whose reader reads it with classifiedOf).
 * A page GET passes no guard and allocates nothing more.
 */
export function classifying(options: ClassifyOptions, guards: readonly Middleware[], handler: ClassifiedHandler): Middleware {
  return (ctx, next) => {
    const request = classify(ctx, options);
    if (SAFE_METHODS.has(ctx.method)) return handler(ctx, request);
    (ctx.state as ClassifiedState).outpostRequest = request;
    return behindGuards(guards, (guarded) => handler(guarded, request))(ctx, next);
  };
}

/** The request's classification, for the body parser's reader behind `classifying`. */
export function classifiedOf(ctx: Context): ClassifiedRequest {
  const request = (ctx.state as ClassifiedState).outpostRequest;
  if (!request) throw new Error("the page path runs behind classifying(): this request was never classified");
  return request;
}
