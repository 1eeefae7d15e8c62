import type Router from "@koa/router";
import Koa, { type Context } from "koa";
import type { LoadedAssets } from "./assets/manifest";
import { sharedAssetLookup } from "./assets/shared-asset-lookup";
import { type AssetResult, staticAssets } from "./assets/static-assets";
import { publicFileExists, publicFiles } from "./public/public-files";
import { type Env, loadAppSettings } from "./config/env.server";
import { ownSettings } from "./config/settings-scope";
import type { UserFeedback } from "../shared/routing/request";
import { createRateLimits, type RateLimits } from "./limits/rate-limits";
import type { RedisConnection } from "./redis/redis-connection";
import { bodyReader } from "./forms/body-parser";
import { clientLeft } from "./http/client-left";
import { crossSiteGuard } from "./http/csrf";
import { healthChecks, type Readiness } from "./http/health";
import { type RequestRecord, requestLog } from "./http/request-log";
import { requestTarget } from "./http/request-target";
import { securityHeaders } from "./http/security-headers";
import { underPath } from "./http/under-path";
import type { Logger } from "./logger";
import type { RequestMonitoring } from "./monitoring/request-monitoring";
import { registerPageCache } from "../shared/routing/page-cache-policy";
import { createPageCache, type PageCacheResult } from "./page-cache/page-cache";
import { detachedContext } from "./page-cache/detached-context";
import { runtimeConfig } from "./render/runtime-config";
import type { RuntimeConfig } from "../shared/document/payload";
import { type PrerenderedBuild, prerenderedAnswers } from "./prerender/prerendered-pages";
import type { ActionGuards } from "./request/guards";
import { pageHandler } from "./request/page-handler";
import type { AppRoutes } from "./routing/app-routes";
import { redisStore } from "./sessions/redis-store";
import { type SessionStore, SessionStoreUnavailableError } from "./sessions/session-store";
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
  /** A page answered 503 because its session's store could not be reached. */
  observeSessionUnavailable?: () => void;
  /** An asset request, by where it was answered from (this build, another build's through Redis, or 404). */
  observeAsset?: (result: AssetResult) => void;
  /** Error reporting (Sentry); without it errors are only logged. */
  monitoring?: RequestMonitoring;
  /** The app's public folder (the build's copy of src/app/public), served at the site's root. */
  publicDir?: string;
  /**
   * This app's own settings source (tests: two apps, two sets of settings, one process); without
   * it the app's settings are the process environment's, read once per process.
   */
  settingsSource?: NodeJS.ProcessEnv;
  /** The shared Redis (REDIS_URL), from connectSharedState; absent, each process keeps its own state. */
  redis?: RedisConnection;
  /** Every named rate limit (connectSharedState's with Redis); per process when absent. The tunnel's limiter comes from the same. */
  rateLimits?: RateLimits;
  /** A page cache lookup: a fresh or stale kept answer, a render kept (miss), or a render that could not be (bypass). */
  observePageCache?: (result: PageCacheResult) => void;
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

/** The build's prerender run: told of every page answer (to keep) and every render error (to fail on). */
export interface PrerenderHooks {
  onAnswer: (ctx: Context) => void;
  onRenderError: (error: unknown, ctx: Context) => void;
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

/** The Redis session store when SESSION_STORE=redis (the environment's check made sure REDIS_URL is set). */
function sessionStore(env: Env, deps: AppDependencies): SessionStore | undefined {
  if (env.SESSION_STORE !== "redis") return undefined;
  if (!deps.redis) throw new Error("SESSION_STORE=redis needs the Redis connection: createApp was given no `redis` (REDIS_URL)");
  return redisStore(deps.redis, { onUnavailable: deps.observeSessionUnavailable, logger: deps.logger });
}

/** Builds the Koa application; it never listens, so tests can mount it on any server. */
export function createApp(deps: AppDependencies): Koa {
  const { env, logger, monitoring } = deps;
  // With proxy trust, count hops from the right: the left-most X-Forwarded-For entry is
  // whatever the client claimed.
  const app = new Koa({ proxy: env.TRUST_PROXY, maxIpsCount: env.PROXY_HOPS });
  const development = env.NODE_ENV === "development";
  installSessions(app, { secrets: env.SESSION_SECRET, store: sessionStore(env, deps) }, logger);
  const { settings } = deps.routes;
  // First, so that everything after it (logs, middleware, loaders) reads this app's settings.
  if (settings && deps.settingsSource) app.use(ownSettings(settings, deps.settingsSource));
  // Loaded at start by the process entry; benchmarks that build an app get them here.
  else loadAppSettings(settings);

  const logRenderError = (error: unknown, ctx: Context) => {
    if (deps.prerendering) return deps.prerendering.onRenderError(error, ctx);
    logger.error({ err: error, method: ctx.method, route: ctx.state.routeLabel }, "render error");
  };
  // Errors thrown outside the renderer (which reports its own); Koa answered them with 500.
  app.on("error", (error: unknown, ctx?: Context) => {
    if (ctx && clientLeft(ctx)) {
      const code = (error as { code?: unknown } | null)?.code;
      logger.info({ method: ctx.method, route: ctx.state.routeLabel, code }, "client left mid-request");
      return;
    }
    if (error instanceof SessionStoreUnavailableError) {
      logger.warn({ method: ctx?.method, route: ctx?.state.routeLabel }, "session not saved: its store is unreachable");
      return;
    }
    logger.error({ err: error, method: ctx?.method }, "request error");
    if (!ctx || (error as { expose?: unknown })?.expose) return;
    const report = deps.monitoring?.forRequest(ctx.req);
    report?.nameRoute(ctx.method, typeof ctx.state.routeLabel === "string" ? ctx.state.routeLabel : "unmatched");
    report?.captureError(error);
  });

  app.use(requestLog(logger, deps.observeRequest));
  app.use(securityHeaders());
  app.use(healthChecks(deps.readiness));
  app.use(requestTarget());
  // No allowedMethods(): the tunnel's one route takes every method and answers 405 itself.
  if (deps.tunnel) app.use(underPath(env.SENTRY_TUNNEL_PATH, deps.tunnel.router.routes()));
  // With Redis, a hashed asset this build lacks may be another live build's (a rolling update).
  app.use(staticAssets(deps.assets.files, { shared: deps.redis ? sharedAssetLookup(deps.redis) : undefined, observe: deps.observeAsset }));
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
  const rateLimits = deps.rateLimits ?? createRateLimits();
  const userFeedback = monitoring ? (feedback: UserFeedback) => monitoring.captureFeedback(feedback) : undefined;
  const { prerendering } = deps;
  // The build's prerender run renders each page for keeps: nothing to cache there.
  const pageCache = prerendering
    ? undefined
    : createPageCache({
        maxBytes: env.PAGE_CACHE_MAX_MB * 1024 * 1024,
        redis: deps.redis,
        observe: deps.observePageCache,
        onError: (error) => logger.warn({ err: error }, "page cache: a background refresh or a shared drop failed"),
        detachedContext,
      });
  if (pageCache) registerPageCache(pageCache);
  const pageConfig = pageRuntimeConfig(deps);
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
      exposeErrors: development,
      renderTimeoutMs: env.RENDER_TIMEOUT_MS,
      manifest: deps.assets.manifest,
      runtimeConfig: pageConfig,
      prerendered: deps.prerendered && prerenderedAnswers(deps.prerendered, pageConfig),
      logError: logRenderError,
      monitoring: deps.monitoring,
      observeRender: deps.observeRender,
      services: { rateLimits, userFeedback },
      pageCache,
      ipv6Prefix: env.RATE_LIMIT_IPV6_PREFIX,
      prerendering: prerendering !== undefined,
    }),
  );
  return app;
}
