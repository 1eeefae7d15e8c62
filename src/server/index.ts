import path from "node:path";
import appRoutes from "outpost:server-routes";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { createApp } from "./app";
import { loadAssets } from "./assets/manifest";
import { browserDsn, loadEnv, loadEnvOrExit, readAppSettings } from "./config/env.server";
import { listenKept } from "./dev/kept-listener";
import { devUpdateStream } from "./dev/update-stream";
import type { Readiness } from "./http/health";
import { ignoreClosedOutput } from "./lifecycle/closed-output";
import { exitOnSignals } from "./lifecycle/graceful-shutdown";
import { createHttpServer, listen } from "./lifecycle/http-server";
import { createDevelopmentLogger, createLogger } from "./logging/logger";
import { createMetrics, startMetricsServer } from "./metrics";
import { loadPrerendered } from "./prerender/prerendered-pages";
import { loadSharedState, startAppServices } from "./services/app-services";

// The process shell: configuration, listening, signals. Everything else is in app.ts.

/** Bounded, so a slow or unreachable ingest cannot hold up the exit. */
const ERROR_FLUSH_TIMEOUT_MS = 2_000;
/** The longest readiness waits for this build's assets to reach Redis (each command is bounded on its own). */
const FIRST_PUBLISH_WAIT_MS = 5_000;

ignoreClosedOutput();

const { env, settings } = loadEnvOrExit(() => ({ env: loadEnv(), settings: readAppSettings(appRoutes.settings) }));
const logger =
  env.NODE_ENV === "development"
    ? await createDevelopmentLogger({ level: env.LOG_LEVEL })
    : createLogger({ level: env.LOG_LEVEL });
// This file is built to dist/server/index.js; the build's other outputs sit beside it.
const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const readiness: Readiness = { ready: false };
const metrics = createMetrics();
// A database the server refuses is a configuration error found only once connected: stop as a bad variable does.
const refusedRedisConfiguration = (message: string) => {
  console.error(`Invalid environment configuration:
  REDIS_URL: ${message}`);
  process.exit(1);
};
const publicDsn = browserDsn(env);
const allowedDsns = [...(publicDsn ? [publicDsn] : []), ...env.SENTRY_TUNNEL_ALLOWED_DSNS];
// Loaded only when used, side by side: instrument.ts initialised Sentry when SENTRY_DSN is set
// (otherwise its SDK is never loaded), and with no DSN at all there is nothing to relay to, so
// the tunnel and its HTTP client (undici) are not even loaded (docs/decisions/0016-start-up-loads-on-first-use.md).
const [reporting, tunnelModule] = await Promise.all([
  env.SENTRY_DSN ? import("./monitoring/request-monitoring") : undefined,
  allowedDsns.length > 0 ? import("./tunnel") : undefined,
  loadSharedState(env),
]);
const monitoring = reporting?.createRequestMonitoring({ tracing: env.SENTRY_TRACES_SAMPLE_RATE > 0 });
const assets = loadAssets(distDir);
// Every service the app uses (sessions, limits, settings, Redis, the page cache, shared assets) is built here, in one place.
const services = await startAppServices({
  env,
  logger,
  routes: appRoutes,
  settings,
  monitoring,
  assets: assets.files,
  onRedisConfigurationError: refusedRedisConfiguration,
  observeSessionUnavailable: metrics.observeSessionUnavailable,
  observePageCache: metrics.observePageCache,
  observePageCacheDropFailure: metrics.observePageCacheDropFailure,
  observeEvents: metrics.eventsObserver,
});
const { redis, assetPublisher, events } = services;
metrics.watchEventStreams(() => events.openStreams);
if (redis) metrics.watchRedis(redis);
const tunnel = createTunnelOrExit(tunnelModule);
if (tunnel?.spoolDepths) metrics.watchSpool(tunnel.spoolDepths, env.SENTRY_TUNNEL_SPOOL_MAX_BYTES);

const devStream =
  env.NODE_ENV === "development" ? devUpdateStream({ files: assets.files, clientDir: path.join(distDir, "client") }) : undefined;
const app = createApp({
  env,
  logger,
  assets,
  readiness,
  routes: appRoutes,
  publicDir: path.join(distDir, "public"),
  prerendered: loadPrerendered(distDir),
  tunnel,
  services,
  monitoring,
  observeRequest: ({ method, route, status, durationMs, aborted }) => metrics.observeRequest(method, route, status, durationMs / 1000, aborted),
  observeRender: metrics.observeRender,
  observeCsrfRefusal: metrics.observeCsrfRefusal,
  observeAsset: metrics.observeAsset,
  extraMiddleware: devStream ? [devStream.middleware] : [],
});
const server = createHttpServer(app.callback());
const [metricsServer, port] = await Promise.all([
  startMetricsServer({ registry: metrics.registry, port: env.METRICS_PORT, host: env.METRICS_HOST }),
  devStream && process.send ? listenKept(server, env.PORT, env.HOST, () => Promise.all([devStream.endStreams(), events.closeStreams()]).then(() => {})) : listen(server, env.PORT, env.HOST),
]);

/** A spool directory that cannot be opened ends start-up with exit 1, naming the variable. */
function createTunnelOrExit(module: typeof import("./tunnel") | undefined) {
  try {
    return module?.createTunnel({
      path: env.SENTRY_TUNNEL_PATH,
      allowedDsns,
      maxBytes: env.SENTRY_TUNNEL_MAX_BYTES,
      rateLimitPerMinute: env.SENTRY_TUNNEL_RATE_LIMIT,
      limiter: env.SENTRY_TUNNEL_RATE_LIMIT > 0 ? services.rateLimits.limiter("tunnel", env.SENTRY_TUNNEL_RATE_LIMIT, 60) : undefined,
      rateLimitIpv6Prefix: env.RATE_LIMIT_IPV6_PREFIX,
      connectTimeoutMs: env.SENTRY_TUNNEL_CONNECT_TIMEOUT_MS,
      headersTimeoutMs: env.SENTRY_TUNNEL_HEADERS_TIMEOUT_MS,
      observer: metrics.tunnelObserver,
      logger,
      clientReportIntervalMs: env.SENTRY_TUNNEL_CLIENT_REPORT_INTERVAL_S * 1000,
      filters: env.SENTRY_TUNNEL_FILTERS,
      forwardIp: env.SENTRY_TUNNEL_FORWARD_IP,
      scrub: env.SENTRY_TUNNEL_SCRUB,
      projectQuota: env.SENTRY_TUNNEL_PROJECT_QUOTA,
      quotaLimiter:
        env.SENTRY_TUNNEL_PROJECT_QUOTA &&
        services.rateLimits.limiter("tunnel_quota", env.SENTRY_TUNNEL_PROJECT_QUOTA.points, env.SENTRY_TUNNEL_PROJECT_QUOTA.durationSeconds),
      spool:
        env.SENTRY_TUNNEL_SPOOL_DIR === "off"
          ? undefined
          : {
              dir: env.SENTRY_TUNNEL_SPOOL_DIR,
              maxEnvelopeBytes: env.SENTRY_TUNNEL_SPOOL_MAX_ENVELOPE_BYTES,
              maxBytes: env.SENTRY_TUNNEL_SPOOL_MAX_BYTES,
              maxAgeSeconds: env.SENTRY_TUNNEL_SPOOL_MAX_AGE_SECONDS,
              maxMemoryBytes: env.SENTRY_TUNNEL_SPOOL_MAX_MEMORY_BYTES,
            },
    });
  } catch (error) {
    if (!(module && error instanceof module.SpoolOpenError)) throw error;
    console.error(`Invalid environment configuration:\n  SENTRY_TUNNEL_SPOOL_DIR: ${error.message}`);
    process.exit(1);
  }
}

exitOnSignals({
  server,
  readiness,
  logger,
  deadlineMs: env.SHUTDOWN_TIMEOUT_MS,
  // Event streams would hold the drain to its deadline: they end now, with a retry hint that sends their clients elsewhere.
  onDraining: () => void events.closeStreams(),
  afterDrain: async (deadline) => {
    // The spool has what is left of the drain deadline; the steps after it are bounded on their own.
    await tunnel?.drain(deadline);
    assetPublisher?.close();
    await Promise.all([tunnel?.close(), metricsServer.close(), reporting?.flushErrorReports(ERROR_FLUSH_TIMEOUT_MS), events.close().then(() => redis?.close())]);
  },
});
// Last: the logger writes synchronously, and a supervisor that signals on this line must find the handlers in place.
logger.info({ host: env.HOST, port, metricsPort: metricsServer.port }, "listening");
// Ready once this build's assets are in Redis (or publishing them failed), within a bound: the old
// build's replicas are asked for them as soon as this one takes traffic.
if (assetPublisher) await Promise.race([assetPublisher.firstAttempt, delay(FIRST_PUBLISH_WAIT_MS, undefined, { ref: false })]);
// Unless a signal came meanwhile and the drain has begun.
if (server.listening) readiness.ready = true;
