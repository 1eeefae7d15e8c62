import type { Env } from "../config/env.server";
import { createRateLimits, type RateLimits } from "../limits/rate-limits";
import { sharedLimiter } from "../limits/shared-limiter";
import type { Logger } from "../logger";
import { createRedisConnection, type RedisConnection, type RedisConnectionOptions } from "./redis-connection";

export interface SharedState {
  redis: RedisConnection;
  rateLimits: RateLimits;
}

/**
 * What replicas share through REDIS_URL. Imported only when it is set, so a single process never
 * loads the Redis client and the limiter library at start.
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
