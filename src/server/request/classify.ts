import type { Context, Middleware } from "koa";
import { pagePathOf } from "../../shared/routing/data-request";
import type { MatchedRoutes } from "../../shared/routing/route-table";
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

/**
 * `next` (the guards and the page handler) with the request classified in front of it: one
 * wrapper rather than a middleware layer, since every page request passes here.
 */
export function classifying(options: ClassifyOptions, next: Middleware): Middleware {
  return (ctx, after) => {
    (ctx.state as ClassifiedState).outpostRequest = classify(ctx, options);
    return next(ctx, after);
  };
}

/** The request's classification, for the body parser's reader and the page handler behind `classifying`. */
export function classifiedOf(ctx: Context): ClassifiedRequest {
  const request = (ctx.state as ClassifiedState).outpostRequest;
  if (!request) throw new Error("the page path runs behind classifying(): this request was never classified");
  return request;
}
