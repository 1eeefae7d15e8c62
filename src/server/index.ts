import path from "node:path";
import appRoutes from "outpost:server-routes";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { createApp } from "./app";
import { loadAssets } from "./assets/manifest";
import { loadEnv, loadEnvOrExit, readAppSettings } from "./config/env.server";
import { listenKept } from "./dev/kept-listener";
import { devUpdateStream } from "./dev/update-stream";
import type { Readiness } from "./http/health";
import { ignoreClosedOutput } from "./lifecycle/closed-output";
import { exitOnSignals } from "./lifecycle/graceful-shutdown";
import { createHttpServer, listen } from "./lifecycle/http-server";
import { createDevelopmentLogger, createLogger } from "./logging/logger";
import { startMetricsServer } from "./metrics";
import { loadPrerendered } from "./prerender/prerendered-pages";
import { startProcessServices } from "./services/process-services";

// The process shell: configuration, listening, signals. The services are built in services/process-services.ts, the middleware in app.ts.

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
// A variable found wrong only once used (a database the server refuses, a spool that cannot be opened): stop as a bad variable does.
const exitOnConfigurationError = (variable: string, message: string): never => {
  console.error(`Invalid environment configuration:\n  ${variable}: ${message}`);
  process.exit(1);
};
const assets = loadAssets(distDir);
// Every service (sessions, limits, settings, Redis, the page cache, shared assets, metrics, error reporting, the tunnel) is built there, in one place.
const services = await startProcessServices({ env, logger, routes: appRoutes, settings, assets: assets.files, onConfigurationError: exitOnConfigurationError });
const { redis, assetPublisher, events, metrics, monitoring, tunnel } = services;

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
    await Promise.all([tunnel?.close(), metricsServer.close(), services.flushErrorReports?.(ERROR_FLUSH_TIMEOUT_MS), events.close().then(() => redis?.close())]);
  },
});
// Last: the logger writes synchronously, and a supervisor that signals on this line must find the handlers in place.
logger.info({ host: env.HOST, port, metricsPort: metricsServer.port }, "listening");
// Ready once this build's assets are in Redis (or publishing them failed), within a bound: the old
// build's replicas are asked for them as soon as this one takes traffic.
if (assetPublisher) await Promise.race([assetPublisher.firstAttempt, delay(FIRST_PUBLISH_WAIT_MS, undefined, { ref: false })]);
// Unless a signal came meanwhile and the drain has begun.
if (server.listening) readiness.ready = true;
