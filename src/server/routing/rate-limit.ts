import type { RouteMiddleware } from "../../shared/routing/module";
import type { RequestContext } from "../../shared/routing/request";
import { httpError } from "../../shared/routing/signals";

/** A named limit: `points` uses per `duration` seconds per key. */
export interface RateLimit {
  name: string;
  points: number;
  duration: number;
}

export interface RateLimitOptions extends RateLimit {
  /** Whose uses count together; the visitor's `clientKey` (IP, or IPv6 network) by default, or e.g. the account name a sign-in names. */
  key?: (context: RequestContext) => string | undefined;
  /** The methods that count (`["POST"]` for a sign-in form); every method when absent. */
  methods?: readonly string[];
}

export type RateLimitDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/** The platform's counting, on every request context: shared through Redis (REDIS_URL) when there is one. */
export interface RateLimitService {
  take(limit: RateLimit, key: string): Promise<RateLimitDecision>;
}

declare module "../../shared/routing/request" {
  interface RouteServices {
    rateLimits: RateLimitService;
  }
}

const NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

/** Throws a TypeError naming what is wrong with a limit, so a mistake stops start-up rather than a request. */
export function checkRateLimit({ name, points, duration }: RateLimit): void {
  if (typeof name !== "string" || !NAME.test(name)) throw new TypeError(`rate limit name ${JSON.stringify(name)}: use 1-64 letters, digits, _ . : or -`);
  if (!Number.isInteger(points) || points < 1) throw new TypeError(`rate limit "${name}": points must be a positive integer, got ${points}`);
  if (!Number.isInteger(duration) || duration < 1) throw new TypeError(`rate limit "${name}": duration must be a positive whole number of seconds, got ${duration}`);
}

/** A limit as route middleware, which can also be counted by hand (`take`) where only some requests should count. */
export interface RateLimitMiddleware extends RouteMiddleware {
  /** Counts one use for this request's key, whatever its method, and says whether it was allowed. */
  take(context: RequestContext): Promise<RateLimitDecision>;
}

/**
 * Route middleware that allows `points` requests per `duration` seconds per key, and answers the
 * rest 429 with Retry-After through the route's error component (`status` 429, `data.reason` and `data.retryAfterSeconds`),
 * which is neither logged as an error nor reported. An action that answers a refusal itself (a
 * form shown again as typed) calls `take(context)` instead of listing it as middleware.
 */
export function rateLimit(options: RateLimitOptions): RateLimitMiddleware {
  const limit: RateLimit = { name: options.name, points: options.points, duration: options.duration };
  checkRateLimit(limit);
  const methods = options.methods?.map((method) => method.toUpperCase());
  const take = (context: RequestContext) => context.services.rateLimits.take(limit, options.key?.(context) || context.clientKey);
  const middleware = async (context: RequestContext) => {
    if (methods && !methods.includes(context.method)) return;
    const decision = await take(context);
    if (decision.ok) return;
    const retryAfterSeconds = decision.retryAfterSeconds;
    const reason = `Too many requests from here: please try again in ${retryAfterSeconds} s.`;
    httpError(429, { reason, retryAfterSeconds }, { headers: { "Retry-After": String(retryAfterSeconds) } });
  };
  return Object.assign(middleware, { take });
}
