import type { Context } from "koa";
import { createElement } from "react";
import { App } from "../../shared/document/App";
import { servedLocation } from "../../shared/navigation/location-hooks";
import type { RenderTracker } from "../../shared/document/RouteTree";
import type { RouteState } from "../../shared/routing/route-state";
import type { RouteMatch } from "../../shared/routing/route-table";
import type { RenderSettings } from "../config/render-settings";
import { contentSecurityPolicy } from "../http/content-security-policy";
import { boundaryAbove, routeError } from "../request/core/resolve-route";
import type { AppRoutes } from "../routing/app-routes";
import { withDeferredScripts } from "./deferred-scripts";
import type { DeferredLines } from "./deferred/deferred-lines";
import { isCrawler } from "./is-crawler";
import { recoveryScript } from "./recovery-script";
import type { RouteAssets } from "./route-assets";
import { type StartedRender, streamDocument } from "./stream-document";

/** What every document is written with: fixed for the app, made once. */
export interface DocumentOptions {
  routes: AppRoutes;
  settings: RenderSettings;
  observeRender?: (route: string, seconds: number) => void;
  assetsFor: (matches: readonly RouteMatch[]) => RouteAssets;
  scriptFor: PageRender["scriptFor"];
  /** The build's prerender run: every page is rendered whole, to be kept as a public one is. */
  prerendering?: boolean;
}

/** A page that depends on who asks is for this visitor only; one with a public policy may be kept by caches. */
function cachePolicy(ctx: Context, { personal, routeHeaders, status }: PageRender): void {
  if (routeHeaders) for (const [name, value] of Object.entries(routeHeaders)) ctx.set(name, value);
  // A route's cache policy is for its page, not for an error shown in its place.
  if (status !== 200) ctx.set("Cache-Control", "no-cache");
  if (!personal) return;
  ctx.res.setHeader("Cache-Control", "private, no-store");
  ctx.vary("Cookie");
}

/** One document to render: fixed per request but for the state, which an error replaces. */
export interface PageRender {
  state: RouteState;
  status: number;
  /** Rendered whole and answered with an ETag (a public cache policy). */
  cacheable: boolean;
  routeHeaders: Record<string, string> | undefined;
  personal: boolean;
  assets: RouteAssets;
  traceMeta: Record<string, string>;
  nonce: string;
  scriptFor: (state: RouteState, traceMeta: Record<string, string>, stream?: string) => string;
  onError: (error: unknown) => string | undefined;
  /** The loaders' deferred values, streamed after the shell. */
  deferred: DeferredLines | undefined;
}

/**
 * Renders the page. When the shell fails (the error is already reported), the error shows in
 * the nearest error component above the route that was rendering; should that fail too, the
 * platform's plain error page; and when even that fails, plain text.
 */
export async function startDocument(ctx: Context, page: PageRender, options: DocumentOptions): Promise<StartedRender | null> {
  let lastReported: { error: unknown; eventId: string | undefined } | undefined;
  // Remembers the shell's error's event id for the error page. Passed beside the page, never
  // assigned to page.onError: reassigning that field was measured to keep every page's objects
  // (React's render included) alive past young-generation GC (docs/decisions/0019-per-page-objects-die-young.md).
  const onError = (error: unknown) => {
    lastReported = { error, eventId: page.onError(error) };
    return lastReported.eventId;
  };
  const tracker: RenderTracker = { deepest: -1 };
  try {
    return await render(ctx, page, onError, options, tracker);
  } catch (shellError) {
    const reported: { error: unknown; eventId: string | undefined } | undefined = lastReported;
    // React reports what fails inside it; what failed before it started (the payload script) is reported here.
    const eventId = reported && reported.error === shellError ? reported.eventId : onError(shellError);
    const error = routeError(shellError, options.settings.exposeErrors, eventId);
    const boundaryId = boundaryAbove(options.routes, page.state.matches, tracker.deepest);
    for (const shown of boundaryId === null ? [null] : [boundaryId, null]) {
      try {
        return await render(ctx, { ...page, status: 500, cacheable: false, state: { ...page.state, error: { boundaryId: shown, error } } }, onError, options);
      } catch {}
    }
    ctx.status = 500;
    ctx.type = "text/plain";
    ctx.body = "Internal Server Error";
    return null;
  }
}

async function render(
  ctx: Context,
  page: PageRender,
  onError: (error: unknown) => string | undefined,
  options: DocumentOptions,
  tracker?: RenderTracker,
): Promise<StartedRender> {
  const app = createElement(App, {
    state: page.state,
    modules: options.routes.modules,
    table: options.routes.table,
    traceMeta: page.traceMeta,
    tracker,
    feedbackPage: options.settings.runtimeConfig.feedbackPage,
    favicon: options.settings.runtimeConfig.favicon,
    served: servedLocation(ctx.path, ctx.querystring ? `?${ctx.querystring}` : ""),
  });
  const { deferred } = page;
  const started = await streamDocument(app, {
    nonce: page.nonce,
    // The recovery from a missing script first; with deferred values the loader data travels
    // encoded, as the stream's first line.
    bootstrapScriptContent:
      recoveryScript(ctx.method) +
      (deferred ? page.scriptFor({ ...page.state, data: {} }, page.traceMeta, deferred.first) : page.scriptFor(page.state, page.traceMeta)),
    bootstrapModules: [options.settings.manifest.entry.script],
    // A HEAD is answered at the shell, as any visitor's, unless the page is cached whole.
    waitForAll: page.cacheable || (ctx.method !== "HEAD" && isCrawler(ctx.get("user-agent"))),
    timeoutMs: options.settings.renderTimeoutMs,
    onError,
  });
  ctx.status = page.status;
  // Fixed values, so straight on the response rather than through Koa's normalising setters.
  ctx.res.setHeader("Content-Type", "text/html; charset=utf-8");
  ctx.res.setHeader("Cache-Control", "no-cache");
  if (page.routeHeaders || page.personal) cachePolicy(ctx, page);
  ctx.res.setHeader("Content-Security-Policy", contentSecurityPolicy(page.nonce));
  if (page.assets.preloadHeader) ctx.res.setHeader("Link", page.assets.preloadHeader);
  return deferred ? withDeferredScripts(started, deferred, page.nonce) : started;
}
