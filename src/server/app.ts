import type Router from "@koa/router";
import type Koa from "koa";
import type { Context } from "koa";
import type { LoadedAssets } from "./assets/manifest";
import { type AssetResult, STATIC_ASSETS_PREFIX, staticAssets } from "./assets/static-assets";
import { publicFileExists, publicFiles } from "./public/public-files";
import type { Env } from "./config/env.server";
import { renderSettings } from "./config/render-settings";
import { bodyReader } from "./forms/body-parser";
import { clientLeft } from "./http/client-left";
import { crossSiteGuard } from "./http/csrf";
import { FixedAnswersKoa } from "./http/fixed-answers";
import { fixedHealthAnswers, healthChecks, type Readiness } from "./http/health";
import { createRequestLog, type RequestRecord } from "./http/request-log";
import { routeLabelOf } from "./http/route-label";
import { requestTarget } from "./http/request-target";
import { securityHeaders } from "./http/security-headers";
import { underPath } from "./http/under-path";
import type { Logger } from "./logging/logger";
import { throttledWarning } from "./logging/throttled-warning";
import type { RequestMonitoring } from "./monitoring/request-monitoring";
import { runtimeConfig } from "./render/runtime-config";
import type { RuntimeConfig } from "../shared/document/payload";
import type { PrerenderHooks } from "./prerender/prerender-hooks";
import { fixedPrerenderedAnswers, type PrerenderedBuild, prerenderedAnswers, servedPrerendered } from "./prerender/prerendered-pages";
import type { ActionGuards } from "./request/guards";
import { pageHandler } from "./request/page-handler";
import type { AppRoutes } from "./routing/app-routes";
import type { AppServices } from "./services/app-services";
import { SessionStoreUnavailableError } from "./sessions/session-store";
import { installSessions } from "./sessions/sessions";

export interface AppDependencies {
  env: Env;
  logger: Logger;
  assets: LoadedAssets;
  readiness: Readiness;
  /** The app's routes (the server build's `outpost:server-routes`); tests and benchmarks pass their own. */
  routes: AppRoutes;
  tunnel?: { router: Router };
  observeRequest?: (record: RequestRecord) => void;
  observeRender?: (route: string, seconds: number) => void;
  /** A request refused as cross-site, by the check that failed. */
  observeCsrfRefusal?: (check: string) => void;
  /**
   * The app's services (sessions, rate limits, user feedback, settings, Redis, the page cache,
   * shared assets), built by createAppServices: the app composes middleware over them and builds none.
   */
  services: AppServices;
  /** An asset request, by where it was answered from (this build, another build's through Redis, or 404). */
  observeAsset?: (result: AssetResult) => void;
  /** Error reporting (Sentry); without it errors are only logged. */
  monitoring?: RequestMonitoring;
  /** The app's public folder (the build's copy of src/app/public), served at the site's root. */
  publicDir?: string;
  /** Extra middleware ahead of the pages, e.g. the development reload stream. */
  extraMiddleware?: Koa.Middleware[];
  /**
   * The build's prerender run only: route code may read no more than its params, and every
   * render error is handed here (the build fails on it, naming the route).
   */
  prerendering?: PrerenderHooks;
  /** The build's prerendered pages (dist/prerendered/), answered without running loaders. */
  prerendered?: PrerenderedBuild;
}

/** The browser's runtime config of this app's pages: chosen at start, so one build serves every environment. */
export function pageRuntimeConfig(deps: Pick<AppDependencies, "env" | "routes" | "monitoring" | "publicDir">): RuntimeConfig {
  const { feedbackPage } = deps.routes.table;
  return runtimeConfig(deps.env, {
    // User feedback goes out through error reporting, so it can be sent exactly when that is on.
    feedbackPage: feedbackPage ? { path: feedbackPage, available: deps.monitoring !== undefined } : null,
    favicon: publicFileExists(deps.publicDir, "favicon.ico"),
  });
}

/** Builds the Koa application; it never listens, so tests can mount it on any server. */
export function createApp(deps: AppDependencies): Koa {
  const { env, logger } = deps;
  // With proxy trust, count hops from the right: the left-most X-Forwarded-For entry is
  // whatever the client claimed.
  const app = new FixedAnswersKoa({ proxy: env.TRUST_PROXY, maxIpsCount: env.PROXY_HOPS });
  const { services } = deps;
  installSessions(app, services.sessions);

  // Every session page refused during an outage is counted (outpost_session_unavailable_total); one line per 10 s says so.
  const warnSessionNotSaved = throttledWarning(logger, "session not saved: its store is unreachable");
  const logRenderError = (error: unknown, ctx: Context) => {
    if (deps.prerendering) return deps.prerendering.onRenderError(error, ctx);
    logger.error({ err: error, method: ctx.method, route: routeLabelOf(ctx.state) }, "render error");
  };
  // Errors thrown outside the renderer (which reports its own); Koa answered them with 500.
  app.on("error", (error: unknown, ctx?: Context) => {
    if (ctx && clientLeft(ctx)) {
      const code = (error as { code?: unknown } | null)?.code;
      logger.info({ method: ctx.method, route: routeLabelOf(ctx.state), code }, "client left mid-request");
      return;
    }
    if (error instanceof SessionStoreUnavailableError) {
      warnSessionNotSaved({ method: ctx?.method, route: ctx && routeLabelOf(ctx.state) });
      return;
    }
    logger.error({ err: error, method: ctx?.method }, "request error");
    if (!ctx || (error as { expose?: unknown })?.expose) return;
    const report = deps.monitoring?.forRequest(ctx.req);
    report?.nameRoute(ctx.method, routeLabelOf(ctx.state) ?? "unmatched");
    report?.captureError(error);
  });

  const log = createRequestLog(logger, deps.observeRequest);
  app.use(log.middleware);
  app.use(securityHeaders());
  // The probes, before Koa makes a context; healthChecks answers what they leave (a query).
  app.answerFirst(fixedHealthAnswers(deps.readiness, log.track));
  app.use(healthChecks(deps.readiness));
  app.use(requestTarget());
  // No allowedMethods(): the tunnel's one route takes every method and answers 405 itself.
  if (deps.tunnel) app.use(underPath(env.SENTRY_TUNNEL_PATH, deps.tunnel.router.routes()));
  // With Redis, a hashed asset this build lacks may be another live build's (a rolling update).
  app.use(staticAssets(deps.assets.files, { shared: services.sharedAssets, observe: deps.observeAsset }));
  app.use(
    publicFiles(deps.publicDir, { table: deps.routes.table, diagnostics: env.ENABLE_DIAGNOSTIC_ROUTES, tunnelPath: env.SENTRY_TUNNEL_PATH, warn: (message) => logger.warn(message) }),
  );
  for (const middleware of deps.extraMiddleware ?? []) app.use(middleware);
  // Pages only: the tunnel above reads its own raw stream and checks DSNs rather than origins.
  // CSRF first, then the body; the page handler runs them for an action op only.
  const guards: ActionGuards = {
    crossSite: crossSiteGuard({
      allowedOrigins: env.ALLOWED_ORIGINS,
      onRefused: (ctx, { check, claimedOrigin }) => {
        logger.warn({ method: ctx.method, check, origin: claimedOrigin }, "cross-site request refused");
        deps.observeCsrfRefusal?.(check);
      },
    }),
    readBody: bodyReader({
      maxBytes: env.BODY_MAX_BYTES,
      maxFields: env.BODY_MAX_FIELDS,
      maxDepth: env.BODY_MAX_DEPTH,
      // Status and reason only: bodies and field values are never logged.
      onRefused: (ctx, { status, message }) => logger.info({ method: ctx.method, status, reason: message }, "request body refused"),
    }),
  };
  const { prerendering } = deps;
  const pageConfig = pageRuntimeConfig(deps);
  const prerendered = deps.prerendered && servedPrerendered(deps.prerendered, pageConfig);
  // Before Koa too, unless a middleware ahead of the pages could take the page (the development reload stream).
  if (prerendered && !prerendering && (deps.extraMiddleware ?? []).length === 0) {
    const { monitoring } = deps;
    app.answerFirst(
      fixedPrerenderedAnswers(prerendered, {
        patternOf: (path) => deps.routes.table.match(path, { diagnostics: env.ENABLE_DIAGNOSTIC_ROUTES })?.pattern,
        // A public file may hide one value of a route with params; an escaped path is left to publicFiles' decoding.
        takenEarlier: (path) =>
          path.startsWith(STATIC_ASSETS_PREFIX) ||
          (deps.tunnel !== undefined && path.startsWith(env.SENTRY_TUNNEL_PATH)) ||
          path.includes("%") ||
          publicFileExists(deps.publicDir, path),
        app,
        track: log.track,
        nameRoute: monitoring && ((req, pattern) => monitoring.forRequest(req).nameRoute(req.method as string, pattern)),
      }),
    );
  }
  if (prerendering) {
    app.use(async (ctx, next) => {
      await next();
      prerendering.onAnswer(ctx);
    });
  }
  // Classified once, then one switch chooses the guards, the resolver and the writer.
  app.use(
    pageHandler({
      routes: deps.routes,
      diagnostics: env.ENABLE_DIAGNOSTIC_ROUTES,
      guards,
      settings: renderSettings(env, deps.assets.manifest, pageConfig),
      prerendered: prerendered && prerenderedAnswers(prerendered),
      logError: logRenderError,
      monitoring: deps.monitoring,
      observeRender: deps.observeRender,
      services,
      warn: (fields, message) => logger.warn(fields, message),
      ipv6Prefix: env.RATE_LIMIT_IPV6_PREFIX,
      prerendering: prerendering !== undefined,
    }),
  );
  return app;
}
