import type { Context } from "koa";
import type { ActionServices } from "../../shared/routing/request";
import { NOT_FOUND_ROUTE } from "../../shared/sentry/reporting-rules";
import { setRouteLabel } from "../http/request-log";
import { requestUrl } from "../http/request-target";
import type { RequestMonitoring, RequestReport } from "../monitoring/request-monitoring";
import type { AppRoutes } from "../routing/app-routes";
import type { ClassifiedRequest } from "./classify";
import type { ResolveOptions, RouteOutcome } from "./outcome";
import { PageRequestContext } from "./request-context";

export interface RequestOptions {
  routes: AppRoutes;
  /** Development only: error pages show the message and stack. */
  exposeErrors: boolean;
  /** Every real error (not the signals) is logged here and reported to monitoring, exactly once. */
  logError: (error: unknown, ctx: Context) => void;
  monitoring?: RequestMonitoring;
  /** What loaders and actions may use besides the request (the feedback service). */
  services: ActionServices;
}

/** One request's own pieces, built from `ctx` once: what resolve() and the writers use instead of it. */
export interface RequestScope extends ResolveOptions {
  routes: AppRoutes;
  report: RequestReport | undefined;
  context: PageRequestContext;
}

/** Names the request by route pattern: log, metrics, transaction. */
function labelRoute(ctx: Context, report: RequestReport | undefined, pattern: string): void {
  setRouteLabel(ctx.state, pattern);
  report?.nameRoute(ctx.method, pattern);
}

/** Names the request by the matched pattern and builds its context, error reporting and URL (on first read). */
export function beginRequest(ctx: Context, request: ClassifiedRequest, options: RequestOptions): RequestScope {
  const { matched, pagePath, requested } = request;
  const report = options.monitoring?.forRequest(ctx.req);
  labelRoute(ctx, report, matched?.pattern ?? NOT_FOUND_ROUTE);
  return {
    routes: options.routes,
    exposeErrors: options.exposeErrors,
    onError: (error) => {
      options.logError(error, ctx);
      return report?.captureError(error);
    },
    loadOnly: requested?.ok ? requested.only : undefined,
    report,
    context: new PageRequestContext(ctx, matched?.matches[0]?.params ?? {}, () => requestUrl(ctx, pagePath), options.services),
  };
}

/** A notFound() made a matched request the not-found page: named so, for reporting as for the visitor. */
export function labelOutcome(ctx: Context, request: ClassifiedRequest, scope: RequestScope, outcome: RouteOutcome): void {
  if (request.matched && outcome.type === "state" && outcome.state.pattern === NOT_FOUND_ROUTE) labelRoute(ctx, scope.report, NOT_FOUND_ROUTE);
}
