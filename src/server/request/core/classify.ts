import type { Context } from "koa";
import { pagePathOf } from "../../../shared/routing/data-request";
import type { MatchedRoutes } from "../../../shared/routing/route-table";
import { isSafeMethod } from "../../http/methods";
import type { AppRoutes } from "../../routing/app-routes";
import type { ParsedSearch } from "../../routing/search-params";
import { type RequestedRoutes, takeRequestedRoutes } from "./requested-routes";
import { type MethodHandler, type RouteKind, routeKind } from "./route-kind";

/**
 * What the answer is written as: the HTML document (a page, or the not-found page), a client
 * navigation's data answer (JSON), or a resource route's own answer.
 */
export type RequestFormat = "document" | "data" | "resource";

/** A read (GET, HEAD, OPTIONS: changes nothing) or an action (any other method: guarded, may carry a body). */
export type RequestOp = "read" | "action";

export interface ClassifiedRequest {
  format: RequestFormat;
  op: RequestOp;
  /** The page's path: the URL's, or a data request's without its prefix. */
  pagePath: string;
  /** The route chain the page path matched; null for the not-found page. */
  matched: MatchedRoutes | null;
  /** What the chain's deepest route is and which methods it takes (a 405's Allow). */
  route: RouteKind;
  /** The code this method runs: the action or a resource route's handler, LOADERS_ONLY, or NOT_TAKEN (405). */
  handler: MethodHandler;
  /** A data request's `_routes` (taken out of its query); undefined for the other formats. */
  requested: RequestedRoutes | undefined;
  /** The query as the page's schema took it, once parsed (parsedSearch): by the cache plan, then the resolve. */
  search?: ParsedSearch;
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
  const format: RequestFormat = dataPath !== null ? "data" : route.resource ? "resource" : "document";
  const op: RequestOp = isSafeMethod(ctx.method) ? "read" : "action";
  const requested = dataPath !== null ? takeRequestedRoutes(ctx, routes) : undefined;
  return { format, op, pagePath, matched, route, handler, requested };
}
