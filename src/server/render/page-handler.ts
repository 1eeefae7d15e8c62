import type { Context, Middleware } from "koa";
import { createElement } from "react";
import { App } from "../../shared/document/App";
import type { RuntimeConfig } from "../../shared/document/payload";
import type { RenderTracker } from "../../shared/document/RouteTree";
import { pagePathOf } from "../../shared/routing/data-request";
import { type RouteState, withStyles } from "../../shared/routing/route-state";
import type { RouteMatch } from "../../shared/routing/route-table";
import type { BuildManifest } from "../assets/manifest";
import { contentSecurityPolicy } from "../http/security-headers";
import { requestUrl } from "../http/request-target";
import { pipeResponse } from "../http/stream-response";
import { answerData } from "./data-handler";
import { isCrawler } from "./is-crawler";
import { thenMaybe } from "./maybe-promise";
import { createNonce, sharedPageNonce } from "./nonce";
import { payloadScript } from "./payload-script";
import { boundaryAbove, routeError } from "./resolve-route";
import { type RouteAssets, routeAssets } from "./route-assets";
import { answerCacheable, collectDocument, isPublicPage, routeHeaders } from "./page-cache";
import { answerResource } from "./resource-answer";
import { matchRequest, type RouteRequest, type RouteRequestOptions, resolveRouteRequest } from "./route-request";
import { applyHeaders } from "../http/response-headers";
import { refuse } from "../http/refuse";
import { type StartedRender, streamDocument } from "./stream-document";
import { deferState, skipDeferredErrors } from "./deferred/defer-values";
import { type DeferredLines, encodeLines } from "./deferred/deferred-lines";
import { withDeferredScripts } from "./deferred/deferred-scripts";

export interface PageHandlerOptions extends RouteRequestOptions {
  renderTimeoutMs: number;
  manifest: BuildManifest;
  runtimeConfig: RuntimeConfig;
  observeRender?: (route: string, seconds: number) => void;
}

/** The last middleware: page requests get the streamed document, navigations' data requests JSON. */
export function pageHandler(options: PageHandlerOptions): Middleware {
  const assetsFor = routeAssets(options.manifest);
  const scriptFor = payloadScript(options.manifest.buildId, options.runtimeConfig);
  return (ctx) => {
    const dataPath = pagePathOf(ctx.path);
    if (dataPath !== null) return answerData(ctx, dataPath, options, assetsFor);
    return thenMaybe(resolveRouteRequest(ctx, ctx.path, () => requestUrl(ctx), options), (request) => {
      if (request) return answerPage(ctx, request, options, assetsFor, scriptFor);
      const { allow } = matchRequest(ctx, ctx.path, options.routes, options.diagnostics).kind;
      ctx.set("Allow", allow);
      refuse(ctx, 405, `Method not allowed here: use ${allow}`);
    });
  };
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

async function answerPage(
  ctx: Context,
  { outcome, report, onError, context }: RouteRequest,
  options: PageHandlerOptions,
  assetsFor: (matches: readonly RouteMatch[]) => RouteAssets,
  scriptFor: PageRender["scriptFor"],
): Promise<void> {
  // No promise for a page that never used the session (most).
  const committed = context.commit();
  if (committed) await committed;
  if (outcome.type === "resource") {
    answerResource(ctx, outcome.value, outcome.status ?? context.chosenStatus);
    // After the body: an httpError's own headers (a problem+json Content-Type) win over JSON's.
    applyHeaders(ctx, outcome.headers);
    return;
  }
  if (outcome.headers) applyHeaders(ctx, outcome.headers);
  if (outcome.type === "redirect") {
    ctx.body = null;
    ctx.status = outcome.status;
    // Said outright so that HEAD carries it too (Koa adds it only to a GET's empty body).
    ctx.length = 0;
    ctx.set("Location", outcome.location);
    return;
  }
  const started = performance.now();
  const audience = deferState(outcome.state, onError, options.exposeErrors, ctx.res);
  const deferred = audience ? await encodeLines(outcome.state.data, onError, options.renderTimeoutMs, audience) : undefined;
  const assets = assetsFor(outcome.state.matches);
  const status = outcome.status === 200 ? (context.chosenStatus ?? 200) : outcome.status;
  const headers = routeHeaders(options.routes, outcome.state);
  const cacheable = isPublicPage(headers, status, context.personal);
  // A HEAD's body is never sent, so nobody receives a deferred value (a cached page's is in its ETag).
  if (ctx.method === "HEAD" && !cacheable) audience?.abort();
  const page: PageRender = {
    state: withStyles(outcome.state, assets.styles),
    status,
    cacheable,
    routeHeaders: headers,
    personal: context.personal,
    assets,
    // A cached page is the same for everybody: no per-request trace, a nonce of its URL's.
    traceMeta: cacheable ? {} : (report?.traceMeta() ?? {}),
    nonce: cacheable ? sharedPageNonce(options.manifest.buildId, ctx.url) : createNonce(),
    scriptFor,
    onError: deferred ? skipDeferredErrors(onError) : onError,
    deferred,
  };
  const render = await startDocument(ctx, page, options);
  if (!render) {
    deferred?.stop();
    return;
  }
  if (cacheable && ctx.status === 200) {
    answerCacheable(ctx, await collectDocument(render.pipe));
    render.close(true);
    return;
  }
  if (ctx.method === "HEAD") {
    // The status and headers are known once the shell is; the body is not wanted.
    render.close(false);
    return;
  }
  const pattern = page.state.pattern;
  // A visitor who leaves mid-stream should not keep React rendering for nobody.
  pipeResponse(ctx, render.pipe, (finished) => {
    render.close(finished);
    if (finished) options.observeRender?.(pattern, (performance.now() - started) / 1000);
  });
}

/** One document to render: fixed per request but for the state, which an error replaces. */
interface PageRender {
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
async function startDocument(ctx: Context, page: PageRender, options: PageHandlerOptions): Promise<StartedRender | null> {
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
    const error = routeError(shellError, options.exposeErrors, eventId);
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
  options: PageHandlerOptions,
  tracker?: RenderTracker,
): Promise<StartedRender> {
  const app = createElement(App, {
    state: page.state,
    modules: options.routes.modules,
    traceMeta: page.traceMeta,
    tracker,
    feedbackPage: options.runtimeConfig.feedbackPage,
    favicon: options.runtimeConfig.favicon,
  });
  const { deferred } = page;
  const started = await streamDocument(app, {
    nonce: page.nonce,
    // With deferred values the loader data travels encoded, as the stream's first line.
    bootstrapScriptContent: deferred
      ? page.scriptFor({ ...page.state, data: {} }, page.traceMeta, deferred.first)
      : page.scriptFor(page.state, page.traceMeta),
    bootstrapModules: [options.manifest.entry.script],
    // A HEAD is answered at the shell, as any visitor's, unless the page is cached whole.
    waitForAll: page.cacheable || (ctx.method !== "HEAD" && isCrawler(ctx.get("user-agent"))),
    timeoutMs: options.renderTimeoutMs,
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
