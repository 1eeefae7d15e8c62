import type { Context } from "koa";
import type { ActionServices } from "../../shared/routing/module";
import { NOT_FOUND_ROUTE } from "../../shared/sentry/reporting-rules";
import { setRouteLabel } from "../http/request-log";
import type { RequestMonitoring, RequestReport } from "../monitoring/request-monitoring";
import type { AppRoutes } from "../routing/app-routes";
import { type MaybePromise, thenMaybe } from "./maybe-promise";
import { type RouteOutcome, resolveRoute } from "./resolve-route";

export interface RouteRequestOptions {
  routes: AppRoutes;
  diagnostics: boolean;
  /** Development only: error pages show the message and stack. */
  exposeErrors: boolean;
  /** Every real error (not the signals) is logged here and reported to monitoring, exactly once. */
  logError: (error: unknown, ctx: Context) => void;
  monitoring?: RequestMonitoring;
  /** What actions may use besides the request (the feedback service). */
  services: ActionServices;
}

export interface RouteRequest {
  outcome: RouteOutcome;
  report: RequestReport | undefined;
  /** Logs and reports an error of this request; returns its event id. */
  onError: (error: unknown) => string | undefined;
}

/** Names the request by route pattern: log, metrics, transaction. */
export function labelRoute(ctx: Context, report: RequestReport | undefined, pattern: string): void {
  setRouteLabel(ctx.state, pattern);
  report?.nameRoute(ctx.method, pattern);
}

/** Logs and reports one error of this request; returns its event id. */
export function errorReporter(ctx: Context, report: RequestReport | undefined, options: RouteRequestOptions) {
  return (error: unknown): string | undefined => {
    options.logError(error, ctx);
    return report?.captureError(error);
  };
}

/**
 * What a page request and a navigation's data request share: match the path, name the request
 * by route pattern (log, metrics, transaction), run the loaders. `url` is the page's URL,
 * built only for a loader that reads it.
 */
export function resolveRouteRequest(
  ctx: Context,
  pathname: string,
  url: () => URL,
  options: RouteRequestOptions,
): MaybePromise<RouteRequest> {
  const matched = options.routes.table.match(pathname, { diagnostics: options.diagnostics });
  const report = options.monitoring?.forRequest(ctx.req);
  labelRoute(ctx, report, matched?.pattern ?? NOT_FOUND_ROUTE);
  const onError = errorReporter(ctx, report, options);
  return thenMaybe(resolveRoute(options.routes, matched, url, { exposeErrors: options.exposeErrors, onError }), (outcome) => {
    // A loader's notFound() makes this the not-found page, for reporting as for the visitor.
    if (matched && outcome.type === "state" && outcome.state.pattern === NOT_FOUND_ROUTE) labelRoute(ctx, report, NOT_FOUND_ROUTE);
    return { outcome, report, onError };
  });
}
