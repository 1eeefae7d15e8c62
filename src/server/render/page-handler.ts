import type { Context, Middleware } from "koa";
import { createElement } from "react";
import { App } from "../../shared/document/App";
import { PAYLOAD_GLOBAL, type RuntimeConfig } from "../../shared/document/payload";
import { serializeForScript } from "../../shared/document/serialize";
import { findRoute } from "../../shared/routing/find-route";
import type { RouteDefinition } from "../../shared/routing/route";
import { NOT_FOUND_ROUTE } from "../../shared/sentry/reporting-rules";
import type { BuildManifest } from "../assets/manifest";
import { setRouteLabel } from "../http/request-log";
import { contentSecurityPolicy } from "../http/security-headers";
import { pipeResponse } from "../http/stream-response";
import type { RequestMonitoring, RequestReport } from "../monitoring/request-monitoring";
import { documentPayload } from "./document-payload";
import { isCrawler } from "./is-crawler";
import { createNonce } from "./nonce";
import { errorOutcome, type PageOutcome, resolvePage } from "./resolve-page";
import { type StartedRender, streamDocument } from "./stream-document";

export interface PageHandlerOptions {
  routes: readonly RouteDefinition[];
  diagnostics: boolean;
  /** Development only: error pages show the message and stack. */
  exposeErrors: boolean;
  renderTimeoutMs: number;
  entry: BuildManifest["entry"];
  runtimeConfig: RuntimeConfig;
  /** Every real error (not the signals) is logged here and reported to monitoring, exactly once. */
  logError: (error: unknown, ctx: Context) => void;
  monitoring?: RequestMonitoring;
  observeRender?: (route: string, seconds: number) => void;
}

type PageResult = Extract<PageOutcome, { type: "page" }> & { route: string };

/** The last middleware: matches the route table, runs the loader, streams the document. */
export function pageHandler(options: PageHandlerOptions): Middleware {
  return async (ctx) => {
    if (ctx.method !== "GET" && ctx.method !== "HEAD") {
      ctx.set("Allow", "GET, HEAD");
      ctx.status = 405;
      return;
    }
    const match = findRoute(options.routes, ctx.path, { diagnostics: options.diagnostics });
    const report = options.monitoring?.forRequest(ctx.req);
    const labelRoute = (route: string) => {
      setRouteLabel(ctx.state, route);
      report?.nameRoute(ctx.method, route);
      return route;
    };
    let routeLabel = labelRoute(match?.route.path ?? NOT_FOUND_ROUTE);
    const onError = (error: unknown) => {
      options.logError(error, ctx);
      report?.captureError(error);
    };
    // The URL is built only for a loader that reads it: parsing it is a measurable share of a page.
    const outcome = await resolvePage(match, () => ctx.URL, {
      exposeErrors: options.exposeErrors,
      onError,
    });
    // A loader's notFound() makes this the not-found page, for reporting as for the visitor.
    if (outcome.type === "page" && outcome.page.kind === "not-found") routeLabel = labelRoute(NOT_FOUND_ROUTE);
    if (outcome.type === "redirect") {
      ctx.body = null;
      ctx.status = outcome.status;
      ctx.set("Location", outcome.location);
      return;
    }
    const started = performance.now();
    const nonce = createNonce();
    const render = await startDocument(ctx, { ...outcome, route: routeLabel }, { nonce, options, report, onError });
    if (!render) return;
    if (ctx.method === "HEAD") {
      // The status and headers are known once the shell is; the body is not wanted.
      render.close(false);
      return;
    }
    // A visitor who leaves mid-stream should not keep React rendering for nobody.
    pipeResponse(ctx, render.pipe, (finished) => {
      render.close(finished);
      if (finished) options.observeRender?.(routeLabel, (performance.now() - started) / 1000);
    });
  };
}

/** What one render needs besides the page: fixed per request. */
interface RenderContext {
  nonce: string;
  options: PageHandlerOptions;
  report: RequestReport | undefined;
  onError: (error: unknown) => void;
}

/**
 * Renders the page, or the error page when the shell fails (its error was already
 * reported through onError), or plain text when even that fails.
 */
async function startDocument(ctx: Context, outcome: PageResult, context: RenderContext): Promise<StartedRender | null> {
  try {
    return await render(ctx, outcome, context);
  } catch (shellError) {
    try {
      const errorPage = { ...errorOutcome(shellError, context.options.exposeErrors), route: outcome.route } as PageResult;
      return await render(ctx, errorPage, context);
    } catch {
      ctx.status = 500;
      ctx.type = "text/plain";
      ctx.body = "Internal Server Error";
      return null;
    }
  }
}

async function render(
  ctx: Context,
  outcome: PageResult,
  { nonce, options, report, onError }: RenderContext,
): Promise<StartedRender> {
  const payload = documentPayload(outcome, options.entry, options.runtimeConfig, report?.traceMeta() ?? {});
  const started = await streamDocument(createElement(App, { payload, routes: options.routes }), {
    nonce,
    bootstrapScriptContent: `window.${PAYLOAD_GLOBAL}=${serializeForScript(payload)}`,
    bootstrapModules: [options.entry.script],
    waitForAll: isCrawler(ctx.get("user-agent")),
    timeoutMs: options.renderTimeoutMs,
    onError,
  });
  ctx.status = outcome.status;
  // Fixed values, so straight on the response rather than through Koa's normalising setters.
  ctx.res.setHeader("Content-Type", "text/html; charset=utf-8");
  ctx.res.setHeader("Cache-Control", "no-cache");
  ctx.res.setHeader("Content-Security-Policy", contentSecurityPolicy(nonce));
  return started;
}
