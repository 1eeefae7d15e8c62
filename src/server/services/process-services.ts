import type { StaticFile } from "../assets/manifest";
import type { SharedAssetsPublisher } from "../assets/shared-assets";
import { browserDsn, type Env } from "../config/env.server";
import type { Logger } from "../logging/logger";
import { createMetrics, type Metrics } from "../metrics";
import type { RequestMonitoring } from "../monitoring/request-monitoring";
import type { AppRoutes } from "../routing/app-routes";
import type { SettingsValues } from "../routing/settings";
import type { Tunnel } from "../tunnel";
import { type AppServices, createAppServices, loadSharedState } from "./app-services";

export interface ProcessServices extends AppServices {
  /** With Redis, this build's hashed assets going out to the replicas of other builds. */
  assetPublisher: SharedAssetsPublisher | undefined;
  /** What the process counts, for the metrics server to expose. */
  metrics: Metrics;
  /** Error reporting (Sentry), when SENTRY_DSN is set. */
  monitoring: RequestMonitoring | undefined;
  /** Sends what reporting still holds, within a bound; absent when reporting is off. */
  flushErrorReports: ((timeoutMs: number) => Promise<unknown>) | undefined;
  /** The Sentry tunnel, when there is a DSN to relay to. */
  tunnel: Tunnel | undefined;
}

export interface ProcessServiceOptions {
  env: Env;
  logger: Logger;
  routes: AppRoutes;
  /** The app's settings, validated at start (`readAppSettings`). */
  settings: SettingsValues;
  /** This build's hashed assets, published to Redis for the replicas of other builds. */
  assets: Map<string, StaticFile>;
  /** A variable found wrong only once used (a database the server refuses, a spool that cannot be opened): the process ends. */
  onConfigurationError: (variable: string, message: string) => never;
}

/**
 * The server process's services: the app's (createAppServices) connected to Redis when
 * REDIS_URL is set, with the metrics they report to, error reporting and the tunnel. Modules
 * are loaded only when used, side by side: Sentry's when SENTRY_DSN is set (instrument.ts
 * initialised it), the tunnel's and its HTTP client's when there is a DSN to relay to, the
 * Redis client's with REDIS_URL (docs/decisions/0016-start-up-loads-on-first-use.md).
 */
export async function startProcessServices(options: ProcessServiceOptions): Promise<ProcessServices> {
  const { env, logger, onConfigurationError } = options;
  const metrics = createMetrics();
  const publicDsn = browserDsn(env);
  const allowedDsns = [...(publicDsn ? [publicDsn] : []), ...env.SENTRY_TUNNEL_ALLOWED_DSNS];
  const [reporting, tunnelModule, sharedState] = await Promise.all([
    env.SENTRY_DSN ? import("../monitoring/request-monitoring") : undefined,
    allowedDsns.length > 0 ? import("../tunnel") : undefined,
    loadSharedState(env),
  ]);
  const monitoring = reporting?.createRequestMonitoring({ tracing: env.SENTRY_TRACES_SAMPLE_RATE > 0 });
  const shared = sharedState?.connectSharedState(env, logger, { onConfigurationError: (message) => onConfigurationError("REDIS_URL", message) });
  const services = createAppServices({
    ...options,
    shared,
    monitoring,
    observeSessionUnavailable: metrics.observeSessionUnavailable,
    observePageCache: metrics.observePageCache,
    observePageCacheDropFailure: metrics.observePageCacheDropFailure,
    observeEvents: metrics.eventsObserver,
  });
  const assetPublisher = shared && sharedState?.shareAssets(shared.redis, env, options.assets, logger);
  metrics.watchEventStreams(() => services.events.openStreams);
  if (services.redis) metrics.watchRedis(services.redis);
  const tunnel = tunnelModule && openTunnel(tunnelModule, { ...options, allowedDsns, services, metrics });
  if (tunnel?.spoolDepths) metrics.watchSpool(tunnel.spoolDepths, env.SENTRY_TUNNEL_SPOOL_MAX_BYTES);
  return { ...services, assetPublisher, metrics, monitoring, flushErrorReports: reporting?.flushErrorReports, tunnel };
}

/** A spool directory that cannot be opened is a configuration error, naming the variable. */
function openTunnel(
  module: typeof import("../tunnel"),
  {
    env,
    logger,
    allowedDsns,
    services,
    metrics,
    onConfigurationError,
  }: ProcessServiceOptions & { allowedDsns: string[]; services: AppServices; metrics: Metrics },
): Tunnel {
  try {
    return module.createTunnel({
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
    if (!(error instanceof module.SpoolOpenError)) throw error;
    return onConfigurationError("SENTRY_TUNNEL_SPOOL_DIR", error.message);
  }
}
