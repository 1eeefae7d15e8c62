import type { Context } from "koa";
import type { RenderSettings } from "../../config/render-settings";
import { requestUrl } from "../../http/request-target";
import type { RequestMonitoring, RequestReport } from "../../monitoring/request-monitoring";
import type { AppRoutes } from "../../routing/app-routes";
import type { ClassifiedRequest } from "./classify";
import type { ResolveOptions } from "./outcome";
import { PrerenderRequestContext } from "./prerender-context";
import { PageRequestContext, type RequestServices } from "./request-context";

export interface RequestOptions {
  routes: AppRoutes;
  /** Fixed for the app, made once (renderSettings): each layer reads what it needs. */
  settings: RenderSettings;
  /** Every real error (not the signals) is logged here and reported to monitoring, exactly once. */
  logError: (error: unknown, ctx: Context) => void;
  monitoring?: RequestMonitoring;
  /** The app's services for each request: what route code reads as `context.services`, and the session store. */
  services: RequestServices;
  /** Leading bits of an IPv6 address that make the request context's `clientKey` (RATE_LIMIT_IPV6_PREFIX). */
  ipv6Prefix: number;
  /** Set by the build's prerender run only: route code may read no more than its params (PrerenderRequestContext). */
  prerendering?: boolean;
}

/** One request's own pieces, built from `ctx` once: what resolve() and the writers use instead of it. */
export interface RequestScope extends ResolveOptions {
  routes: AppRoutes;
  report: RequestReport | undefined;
  context: PageRequestContext;
  /** Set by the document writer when the page shows a deferred value that failed or never came: answered, never kept. */
  partial: boolean;
}

/** Whether the answer may be kept for others (the page cache, a shared cache): it read nobody's cookies or session and came out whole. */
export function isShareable({ context, partial }: RequestScope): boolean {
  return !context.personal && !partial;
}

/** Builds the request's context, its error reporting and its URL (on first read); `report` is already named by route. */
export function beginRequest(ctx: Context, request: ClassifiedRequest, report: RequestReport | undefined, options: RequestOptions): RequestScope {
  const { requested } = request;
  return {
    routes: options.routes,
    settings: options.settings,
    onError: (error) => {
      options.logError(error, ctx);
      return report?.captureError(error);
    },
    loadOnly: requested?.ok ? requested.only : undefined,
    report,
    context: requestContext(ctx, request, options),
    partial: false,
  };
}

function requestContext(ctx: Context, { matched, pagePath }: ClassifiedRequest, options: RequestOptions): PageRequestContext {
  const params = matched?.matches[0]?.params ?? {};
  const url = () => requestUrl(ctx, pagePath);
  if (!options.prerendering) return new PageRequestContext(ctx, params, url, options.services, options.ipv6Prefix);
  return new PrerenderRequestContext(matched?.pattern ?? pagePath, ctx, params, url, options.services, options.ipv6Prefix);
}
