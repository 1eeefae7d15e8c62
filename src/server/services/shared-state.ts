import type { StaticFile } from "../assets/manifest";
import { publishSharedAssets, type SharedAssetsPublisher } from "../assets/shared-assets";
import type { Env } from "../config/env.server";
import { createRateLimits, type RateLimits } from "../limits/rate-limits";
import { sharedLimiter } from "../limits/shared-limiter";
import type { Logger } from "../logging/logger";
import { createRedisConnection, type RedisConnection, type RedisConnectionOptions } from "../redis/redis-connection";

export interface SharedState {
  redis: RedisConnection;
  rateLimits: RateLimits;
}

/**
 * What replicas share through REDIS_URL, for createAppServices (app-services.ts) to build on.
 * Imported only when it is set, so a single process never loads the Redis client and the limiter
 * library at start.
 */
export function connectSharedState(
  env: Pick<Env, "REDIS_URL" | "REDIS_TIMEOUT_MS">,
  logger: Logger,
  options: Pick<RedisConnectionOptions, "probeIntervalMs" | "onConfigurationError"> = {},
): SharedState {
  if (!env.REDIS_URL) throw new Error("connectSharedState needs REDIS_URL");
  const redis = createRedisConnection({ url: env.REDIS_URL, timeoutMs: env.REDIS_TIMEOUT_MS, logger, ...options });
  return { redis, rateLimits: createRateLimits((name, points, duration, fallback) => sharedLimiter(redis, name, points, duration, fallback)) };
}

/** Publishes this build's hashed assets for the replicas of other builds (a rolling update); in the background. */
export function shareAssets(
  redis: RedisConnection,
  env: Pick<Env, "ASSET_RETENTION_HOURS" | "ASSET_PUBLISH_MAX_MB">,
  files: Map<string, StaticFile>,
  logger: Logger,
): SharedAssetsPublisher {
  return publishSharedAssets({
    redis,
    files,
    retentionMs: Math.max(1, Math.round(env.ASSET_RETENTION_HOURS * 3_600_000)),
    maxBytes: Math.round(env.ASSET_PUBLISH_MAX_MB * 1024 * 1024),
    logger,
  });
}
