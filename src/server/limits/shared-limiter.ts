import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { Redis } from "ioredis";
import type { Limiter, RateDecision } from "./limiter";

/** What the limiter needs of the Redis connection: its client, and whether Redis answers now. */
export interface LimiterRedis {
  readonly client: Redis;
  readonly up: boolean;
}

const ALLOWED: RateDecision = { ok: true };

const refused = (rejection: RateLimiterRes): RateDecision => ({ ok: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) });

/**
 * `points` per `durationSeconds` per key, counted in Redis across every replica that shares it.
 * While Redis does not answer (down, frozen, out of memory, slower than REDIS_TIMEOUT_MS), `fallback`
 * counts in this process instead: the limit degrades to per instance, it never fails a request.
 * The fallback is the same bounded token bucket a process without Redis uses.
 */
export function sharedLimiter(redis: LimiterRedis, name: string, points: number, durationSeconds: number, fallback: Limiter): Limiter {
  const limiter = new RateLimiterRedis({
    storeClient: redis.client,
    keyPrefix: `outpost:limit:${name}`,
    points,
    duration: durationSeconds,
    // Not even a try while disconnected: the connection has no offline queue to wait in.
    rejectIfRedisNotReady: true,
  });
  return {
    take(key) {
      // Known not to answer: no round trip to wait out.
      if (!redis.up) return fallback.take(key);
      return limiter.consume(key).then(
        () => ALLOWED,
        (rejection: unknown) => (rejection instanceof RateLimiterRes ? refused(rejection) : fallback.take(key)),
      );
    },
  };
}
