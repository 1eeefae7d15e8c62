import { checkRateLimit, type RateLimitService } from "../routing/rate-limit";
import type { Limiter } from "./limiter";
import { LocalLimiter } from "./local-limiter";

/**
 * Makes a limit counted across replicas (see shared-limiter.ts), loaded only when REDIS_URL is set;
 * `fallback` is the bounded per-process limit it counts with while Redis does not answer.
 */
export type SharedLimiterFactory = (name: string, points: number, durationSeconds: number, fallback: Limiter) => Limiter;

/** Most keys one process remembers per limit; a forgotten key starts again with its full allowance. */
const MAX_KEYS = 10_000;

/** Every named limit of the process: the tunnel's and the product's own (its rateLimit() middleware). */
export interface RateLimits extends RateLimitService {
  /** The limit of this name, made on first use; the same name always means the same numbers. */
  limiter(name: string, points: number, durationSeconds: number): Limiter;
}

/**
 * With a shared factory (Redis), limits are counted across every replica that shares it (falling
 * back to this process while it is down); without one, in this process alone, as a token bucket.
 */
export function createRateLimits(shared?: SharedLimiterFactory): RateLimits {
  const made = new Map<string, { points: number; durationSeconds: number; limiter: Limiter }>();
  const limits: RateLimits = {
    async take({ name, points, duration }, key) {
      return limits.limiter(name, points, duration).take(key);
    },
    limiter(name, points, durationSeconds) {
      const known = made.get(name);
      if (known) {
        if (known.points !== points || known.durationSeconds !== durationSeconds) {
          throw new Error(`rate limit "${name}" is already ${known.points} per ${known.durationSeconds} s: give another limit another name`);
        }
        return known.limiter;
      }
      checkRateLimit({ name, points, duration: durationSeconds });
      const local = new LocalLimiter(points, durationSeconds * 1000, MAX_KEYS);
      const limiter = shared ? shared(name, points, durationSeconds, local) : local;
      made.set(name, { points, durationSeconds, limiter });
      return limiter;
    },
  };
  return limits;
}
