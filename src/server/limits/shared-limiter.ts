import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { RedisConnection } from "../redis/redis-connection";
import type { Limiter, RateDecision } from "./limiter";

const ALLOWED: RateDecision = { ok: true };

function refused(rejection: unknown): RateDecision {
  if (rejection instanceof RateLimiterRes) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
  throw rejection;
}

/**
 * `points` per `durationSeconds` per key, counted in Redis across every replica that shares it.
 * While Redis is down or slower than REDIS_TIMEOUT_MS, rate-limiter-flexible's insurance limiter
 * counts in this process instead: the limit degrades to per instance, it never fails a request.
 */
export function sharedLimiter(redis: RedisConnection, name: string, points: number, durationSeconds: number): Limiter {
  const limiter = new RateLimiterRedis({
    storeClient: redis.client,
    keyPrefix: `outpost:limit:${name}`,
    points,
    duration: durationSeconds,
    // Not even a try while disconnected: the connection has no offline queue to wait in.
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix: `outpost:limit:${name}`, points, duration: durationSeconds }),
  });
  return { take: (key) => limiter.consume(key).then(() => ALLOWED, refused) };
}
