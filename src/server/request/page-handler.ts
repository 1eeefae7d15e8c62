import type { Context, Middleware } from "koa";
import { NOT_FOUND_ROUTE } from "../../shared/routing/route-table";
import { setRouteLabel } from "../http/route-label";
import type { RequestReport } from "../monitoring/request-monitoring";
import { type BadCacheTags, cachePlan, isCanonicalPath } from "../page-cache/cache-plan";
import { CACHE_STATUS, type CacheLookup, type PageCache } from "../page-cache/page-cache";
import { payloadScript } from "../render/payload-script";
import { routeAssets } from "../render/route-assets";
import { SessionStoreUnavailableError } from "../sessions/session-store";
import { type ClassifiedRequest, type ClassifyOptions, classify } from "./core/classify";
import { redirectToCanonical } from "./canonical-path";
import { type ActionGuards, refusedByGuards } from "./guards";
import type { MaybePromise } from "./core/maybe-promise";
import type { RouteOutcome } from "./core/outcome";
import { choosePlan, type PipelinePlan, type WriteOptions } from "./pipeline-switch";
import { beginRequest, isShareable, type RequestOptions, type RequestScope } from "./core/request-scope";
import type { RequestServices } from "./core/request-context";
import { resolve } from "./core/resolve";

export interface PageHandlerOptions extends RequestOptions, ClassifyOptions {
  /** CSRF, then the body: run ahead of an action op only. */
  guards: ActionGuards;
  observeRender?: (route: string, seconds: number) => void;
  services: PageServices;
  /** Answers a prerendered URL from the build (true when it did), before any loader. */
  prerendered?: (ctx: Context, request: ClassifiedRequest) => boolean;
  /** A configuration mistake worth one line (a page's `cache.tags` that cannot give tags). */
  warn?: (fields: Record<string, unknown>, message: string) => void;
}

/** What the page path reads of the app's services: the request's, and the page cache. */
export interface PageServices extends RequestServices {
  /** Keeps the answers of pages that declare `cache`; absent in the build's prerender run, which keeps every render, and then every request renders. */
  pageCache: PageCache | undefined;
}

/** The prerender run's outcomes by page path. */
type ResolvedOutcomes = Map<string, MaybePromise<RouteOutcome>>;

/**
 * The page path's entry: classifies the request once, lets choosePlan pick its guards, resolver
 * and writer, refuses what may not run (405, a data request's 4xx), then resolves the rest to an
 * outcome and hands it to the chosen writer. A read passes no guard and allocates nothing more.
 */
export function pageHandler(options: PageHandlerOptions): Middleware {
  const { manifest } = options.settings;
  const write: WriteOptions = {
    ...options,
    build: manifest.buildId,
    assetsFor: routeAssets(manifest),
    scriptFor: payloadScript(manifest.buildId, options.settings.runtimeConfig),
  };
  const { guards } = options;
  const { pageCache } = options.services;
  // The build's prerender run asks each page twice (document, data answer): one run of its loaders serves both.
  const resolved: ResolvedOutcomes | undefined = options.prerendering ? new Map() : undefined;
  // Once per route: a page whose tags fail fails on every request.
  const warnedTags = new Set<string>();
  const onBadTags: BadCacheTags = (ctx, route, error) => {
    ctx.res.setHeader("Cache-Status", `${CACHE_STATUS.bypass}; detail=bad-tags`);
    if (warnedTags.has(route)) return;
    warnedTags.add(route);
    options.warn?.({ route, err: error }, "page cache: the page's cache.tags gave no valid tags; it renders uncached");
  };

  /** A page read the build or the page cache may answer: answered from there when it can be, rendered otherwise. */
  const answerFromStorage = (ctx: Context, request: ClassifiedRequest, plan: PipelinePlan): MaybePromise<void> => {
    if (options.prerendered?.(ctx, request)) {
      nameRoute(ctx, request, options);
      return;
    }
    if (pageCache && !isCanonicalPath(request.pagePath) && keptDocument(request)) {
      nameRoute(ctx, request, options);
      return redirectToCanonical(ctx, request.pagePath);
    }
    const cached = pageCache && cachePlan(ctx, request, write.build, onBadTags);
    if (!cached) return resolveAndWrite(ctx, request, plan, beginNamedRequest(ctx, request, options), write, resolved);
    // Named before the lookup: a kept answer is logged and measured under its pattern too.
    const report = nameRoute(ctx, request, options);
    const lookup = pageCache.lookUp(ctx, cached);
    if (lookup instanceof Promise) return lookup.then((found) => answerLookup(ctx, request, plan, found, report));
    return answerLookup(ctx, request, plan, lookup, report);
  };

  /** The cache's lookup, answered: a kept answer was written (a stale one's refresh started here), or the page renders and the cache keeps it. */
  const answerLookup = (ctx: Context, request: ClassifiedRequest, plan: PipelinePlan, lookup: CacheLookup, report: RequestReport | undefined): MaybePromise<void> => {
    if (lookup.kind === "answered") return lookup.refresh?.((detached) => renderShareable(detached, request, plan, undefined, false));
    return lookup.keep(renderShareable(ctx, request, plan, report, true));
  };

  /** Renders a kept page's answer onto `ctx`, the request's own (named already) or a background refresh's; resolves whether it may be kept for others. */
  const renderShareable = async (ctx: Context, request: ClassifiedRequest, plan: PipelinePlan, report: RequestReport | undefined, own: boolean): Promise<boolean> => {
    // Begun inside the promise: whatever throws reaches the cache's keep, which then lets the key go.
    const scope = own ? beginRequest(ctx, request, report, options) : beginNamedRequest(ctx, request, options);
    await resolveAndWrite(ctx, request, plan, scope, write);
    return isShareable(scope);
  };

  /** The request past its guards: refused, answered from storage, or resolved and written by the plan. */
  const answerRequest = (ctx: Context, request: ClassifiedRequest, plan: PipelinePlan): MaybePromise<void> => {
    if (plan.refuse(ctx, request, write.build)) return;
    if (plan.fromStorage) return answerFromStorage(ctx, request, plan);
    return resolveAndWrite(ctx, request, plan, beginNamedRequest(ctx, request, options), write, resolved);
  };

  return (ctx) => {
    const request = classify(ctx, options);
    const plan = choosePlan(request);
    if (!plan.guarded) return answerRequest(ctx, request, plan);
    return refusedByGuards(ctx, request, plan, guards).then((refused) => (refused ? undefined : answerRequest(ctx, request, plan)));
  };
}

/** Whether a page read (the plan said so) is for the document of a page the cache keeps. */
function keptDocument(request: ClassifiedRequest): boolean {
  return request.format === "document" && request.matched !== null && request.route.server?.cache !== undefined;
}

/** Names the request and builds its scope (the request context, error reporting). */
function beginNamedRequest(ctx: Context, request: ClassifiedRequest, options: PageHandlerOptions): RequestScope {
  return beginRequest(ctx, request, nameRoute(ctx, request, options), options);
}

/** Names the request by the pattern it matched (log, metrics, transaction); returns its error reporting. */
function nameRoute(ctx: Context, request: ClassifiedRequest, options: PageHandlerOptions): RequestReport | undefined {
  const report = options.monitoring?.forRequest(ctx.req);
  labelRoute(ctx, report, request.matched?.pattern ?? NOT_FOUND_ROUTE);
  return report;
}

/** Resolves the request by the plan's resolver and writes its answer with the plan's writer. */
function resolveAndWrite(ctx: Context, request: ClassifiedRequest, plan: PipelinePlan, scope: RequestScope, write: WriteOptions, resolved?: ResolvedOutcomes): MaybePromise<void> {
  const outcome = resolved?.get(request.pagePath) ?? resolve(request, scope, plan.resolver);
  resolved?.set(request.pagePath, outcome);
  // Without a closure on the usual, synchronous path.
  if (outcome instanceof Promise) return outcome.then((resolved) => writeOutcome(ctx, request, plan, scope, resolved, write));
  return writeOutcome(ctx, request, plan, scope, outcome, write);
}

/** Names the request by route pattern: log, metrics, transaction. */
function labelRoute(ctx: Context, report: RequestReport | undefined, pattern: string): void {
  setRouteLabel(ctx.state, pattern);
  report?.nameRoute(ctx.method, pattern);
}

/** Commits the session, then writes the outcome with the plan's writer (the 503 instead, if the session could not be saved). */
function writeOutcome(ctx: Context, request: ClassifiedRequest, plan: PipelinePlan, scope: RequestScope, outcome: RouteOutcome, write: WriteOptions): MaybePromise<void> {
  // A notFound() made a matched request the not-found page: named so, for reporting as for the visitor.
  if (request.matched && outcome.type === "state" && outcome.state.pattern === NOT_FOUND_ROUTE) labelRoute(ctx, scope.report, NOT_FOUND_ROUTE);
  // Before any header is sent; no promise for a request that never used the session (most).
  const committed = scope.context.commit();
  if (committed) {
    return committed.then(
      () => plan.write(ctx, outcome, scope, write),
      (error: unknown) => writeUnsaved(ctx, request, plan, scope, error, write),
    );
  }
  return plan.write(ctx, outcome, scope, write);
}

/**
 * A session its store could not take: the request's answer is the 503 a session read would have
 * been (the error page, a data answer's status, a resource's JSON); the app's error listener warns once.
 */
async function writeUnsaved(ctx: Context, request: ClassifiedRequest, plan: PipelinePlan, scope: RequestScope, error: unknown, write: WriteOptions): Promise<void> {
  if (!(error instanceof SessionStoreUnavailableError)) throw error;
  ctx.app.emit("error", error, ctx);
  return plan.write(ctx, await plan.unsaved(request, scope), scope, write);
}
