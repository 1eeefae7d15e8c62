import type { Context } from "koa";
import type { RuntimeConfig } from "../../shared/document/payload";
import type { BuildManifest } from "../assets/manifest";
import { refuse } from "../http/refuse";
import type { ClassifiedHandler, ClassifiedRequest } from "../request/classify";
import type { MaybePromise } from "../request/maybe-promise";
import type { RouteOutcome } from "../request/outcome";
import { resolve } from "../request/resolve";
import { resolveRoute } from "../request/resolve-route";
import { beginRequest, type RequestOptions, type RequestScope } from "../request/request-scope";
import type { RequestReport } from "../monitoring/request-monitoring";
import { setRouteLabel } from "../http/request-log";
import { NOT_FOUND_ROUTE } from "../../shared/routing/route-table";
import { SessionStoreUnavailableError, sessionUnavailable } from "../sessions/session-store";
import { cachePlan } from "../page-cache/cache-plan";
import type { PageCache } from "../page-cache/page-cache";
import { answerData, type DataAnswerOptions, refuseData } from "./data-answer";
import { answerPage } from "./document-writer";
import { payloadScript } from "./payload-script";
import type { DocumentOptions } from "./render-document";
import { writeRedirect, writeResource } from "./resource-answer";
import { routeAssets } from "./route-assets";

export interface PageHandlerOptions extends RequestOptions {
  renderTimeoutMs: number;
  manifest: BuildManifest;
  runtimeConfig: RuntimeConfig;
  observeRender?: (route: string, seconds: number) => void;
  /** Keeps the answers of pages that declare `cache`; without it every request renders. */
  pageCache?: PageCache;
  /** Answers a prerendered URL from the build (true when it did), before any loader. */
  prerendered?: (ctx: Context, request: ClassifiedRequest) => boolean;
}

type WriteOptions = DocumentOptions & DataAnswerOptions;
/** The prerender run's outcomes by page path. */
type ResolvedOutcomes = Map<string, ReturnType<typeof resolve>>;

/**
 * The page path's handler, behind `classifying`: refuses what may not run (405, a data request's
 * 4xx), resolves the rest to an outcome and hands it to its writer: the HTML document, the
 * data answer or the resource answer.
 */
export function pageHandler(options: PageHandlerOptions): ClassifiedHandler {
  const write: WriteOptions = {
    ...options,
    build: options.manifest.buildId,
    assetsFor: routeAssets(options.manifest),
    scriptFor: payloadScript(options.manifest.buildId, options.runtimeConfig),
  };
  const { pageCache } = options;
  // The build's prerender run asks each page twice (document, data answer): one run of its loaders serves both.
  const resolved: ResolvedOutcomes | undefined = options.prerendering ? new Map() : undefined;
  return (ctx, request) => {
    if (request.kind === "data" ? refuseData(ctx, request, write.build) : refuseMethod(ctx, request)) return;
    if (options.prerendered?.(ctx, request)) {
      labelRoute(ctx, options.monitoring?.forRequest(ctx.req), request.matched?.pattern ?? NOT_FOUND_ROUTE);
      return;
    }
    const plan = pageCache && cachePlan(ctx, request, options.routes, write.build);
    if (plan) {
      return pageCache.serve(ctx, plan, async (target) => {
        const scope = begin(target, request, options);
        await run(target, request, scope, write);
        // Kept only if it depended on nobody's cookies or session and came out whole.
        return !scope.context.personal && !scope.partial;
      });
    }
    return run(ctx, request, begin(ctx, request, options), write, resolved);
  };
}

/** Names the request and builds its scope (the request context, error reporting). */
function begin(ctx: Context, request: ClassifiedRequest, options: PageHandlerOptions): RequestScope {
  const report = options.monitoring?.forRequest(ctx.req);
  labelRoute(ctx, report, request.matched?.pattern ?? NOT_FOUND_ROUTE);
  return beginRequest(ctx, request, report, options);
}

/** Resolves the request and writes its answer. */
function run(ctx: Context, request: ClassifiedRequest, scope: RequestScope, write: WriteOptions, resolved?: ResolvedOutcomes): MaybePromise<void> {
  const outcome = resolved?.get(request.pagePath) ?? resolve(request, scope);
  resolved?.set(request.pagePath, outcome);
  // Without a closure on the usual, synchronous path.
  if (outcome instanceof Promise) return outcome.then((resolved) => answer(ctx, request, scope, resolved, write));
  return answer(ctx, request, scope, outcome, write);
}

/** Names the request by route pattern: log, metrics, transaction. */
function labelRoute(ctx: Context, report: RequestReport | undefined, pattern: string): void {
  setRouteLabel(ctx.state, pattern);
  report?.nameRoute(ctx.method, pattern);
}

/** A page or resource route that does not take the method: 405 with the methods it does. */
function refuseMethod(ctx: Context, { handler, route }: ClassifiedRequest): boolean {
  if (handler !== null) return false;
  ctx.set("Allow", route.allow);
  refuse(ctx, 405, `Method not allowed here: use ${route.allow}`);
  return true;
}

function answer(ctx: Context, request: ClassifiedRequest, scope: RequestScope, outcome: RouteOutcome, write: WriteOptions): MaybePromise<void> {
  // A notFound() made a matched request the not-found page: named so, for reporting as for the visitor.
  if (request.matched && outcome.type === "state" && outcome.state.pattern === NOT_FOUND_ROUTE) labelRoute(ctx, scope.report, NOT_FOUND_ROUTE);
  // Before any header is sent; no promise for a request that never used the session (most).
  const committed = scope.context.commit();
  if (committed) {
    return committed.then(
      () => writeAnswer(ctx, request, scope, outcome, write),
      (error: unknown) => answerUnsaved(ctx, request, scope, error, write),
    );
  }
  return writeAnswer(ctx, request, scope, outcome, write);
}

/**
 * A session its store could not take: the request's answer is the 503 a session read would have
 * been (the error page, a data answer's status, a resource's JSON), shown at the leaf route, so
 * the layouts above it render as usual; the app's error listener warns once.
 */
async function answerUnsaved(ctx: Context, request: ClassifiedRequest, scope: RequestScope, error: unknown, write: WriteOptions): Promise<void> {
  if (!(error instanceof SessionStoreUnavailableError)) throw error;
  ctx.app.emit("error", error, ctx);
  const signal = sessionUnavailable();
  if (request.kind === "resource") return writeResource(ctx, { type: "resource", value: signal.data, status: signal.status, headers: signal.headers });
  const chain = request.matched ?? scope.routes.table.notFound();
  const outcome = await resolveRoute(scope.routes, request.matched, scope.context, scope, { depth: chain.matches.length - 1, error: signal });
  return writeAnswer(ctx, request, scope, outcome, write);
}

function writeAnswer(ctx: Context, request: ClassifiedRequest, scope: RequestScope, outcome: RouteOutcome, write: WriteOptions): MaybePromise<void> {
  if (outcome.type === "resource") return writeResource(ctx, outcome);
  if (request.kind === "data") return answerData(ctx, outcome, scope, write);
  if (outcome.type === "redirect") return writeRedirect(ctx, outcome);
  return answerPage(ctx, outcome, scope, write);
}
