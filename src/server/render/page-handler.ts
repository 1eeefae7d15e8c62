import { randomBytes } from "node:crypto";
import { isbot } from "isbot";
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
import { streamResponse } from "../http/stream-response";
import type { RequestMonitoring } from "../monitoring/request-monitoring";
import { documentPayload } from "./document-payload";
import { errorOutcome, type PageOutcome, resolvePage } from "./resolve-page";
import { type StartedStream, streamDocument } from "./stream-document";

export interface PageHandlerOptions {
  routes: readonly RouteDefinition[];
  diagnostics: boolean;
  /** Development only: error pages show the message and stack. */
  exposeErrors: boolean;
  renderTimeoutMs: number;
  entry: BuildManifest["entry"];
  runtimeConfig: RuntimeConfig;
  /** Every real error (not the signals), logged and reported exactly once. */
  reportError: (error: unknown, ctx: Context) => void;
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
    const labelRoute = (route: string) => {
      setRouteLabel(ctx.state, route);
      options.monitoring?.nameRoute(ctx.method, route);
      return route;
    };
    let routeLabel = labelRoute(match?.route.path ?? NOT_FOUND_ROUTE);
    const onError = (error: unknown) => options.reportError(error, ctx);
    const outcome = await resolvePage(match, ctx.URL, {
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
    const nonce = randomBytes(16).toString("base64");
    const stream = await startDocument(ctx, { ...outcome, route: routeLabel }, nonce, options, onError);
    if (!stream) return;
    if (ctx.method === "HEAD") {
      // The status and headers are known once the shell is; the body is not wanted.
      stream.cancel();
      stream.body.destroy();
      return;
    }
    stream.body.once("finish", () =>
      options.observeRender?.(routeLabel, (performance.now() - started) / 1000),
    );
    // A visitor who leaves mid-stream should not keep React rendering for nobody.
    streamResponse(ctx, stream.body, stream.cancel);
  };
}

/**
 * Renders the page, or the error page when the shell fails (its error was already
 * reported through onError), or plain text when even that fails.
 */
async function startDocument(
  ctx: Context,
  outcome: PageResult,
  nonce: string,
  options: PageHandlerOptions,
  onError: (error: unknown) => void,
): Promise<StartedStream | null> {
  try {
    return await render(ctx, outcome, nonce, options, onError);
  } catch (shellError) {
    try {
      const errorPage = { ...errorOutcome(shellError, options.exposeErrors), route: outcome.route } as PageResult;
      return await render(ctx, errorPage, nonce, options, onError);
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
  nonce: string,
  options: PageHandlerOptions,
  onError: (error: unknown) => void,
): Promise<StartedStream> {
  const payload = documentPayload(
    outcome,
    options.entry,
    options.runtimeConfig,
    options.monitoring?.traceMeta() ?? {},
  );
  const stream = await streamDocument(
    createElement(App, { payload, routes: options.routes }),
    {
      nonce,
      bootstrapScriptContent: `window.${PAYLOAD_GLOBAL}=${serializeForScript(payload)}`,
      bootstrapModules: [options.entry.script],
      waitForAll: isbot(ctx.get("user-agent")),
      timeoutMs: options.renderTimeoutMs,
      onError,
    },
  );
  ctx.status = outcome.status;
  ctx.type = "text/html; charset=utf-8";
  ctx.set("Cache-Control", "no-cache");
  ctx.set("Content-Security-Policy", contentSecurityPolicy(nonce));
  return stream;
}
