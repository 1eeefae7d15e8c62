import type { Redis } from "ioredis";
import { LRUCache } from "lru-cache";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { Limiter, RateDecision } from "./limiter";

/** What the limiter needs of the Redis connection: its client, whether Redis answers now, and its write coalescing. */
export interface LimiterRedis {
  readonly client: Redis;
  readonly up: boolean;
  /** Holds the commands of this event-loop turn for one socket write (redis-connection.ts). */
  coalesceWrites(): void;
}

/**
 * The most points one replica takes from Redis at once for one key: half of it is what a busy key
 * spends while its next lease is on its way, and it must outlast a round trip on a loaded machine
 * (tens of milliseconds at thousands of uses a second), or its uses wait (decision 0108).
 */
export const MAX_LEASE = 1024;
/** A lease is at most this share of the limit, so unspent leased points refuse no more than 1 % early per replica. */
const LEASE_SHARE = 100;
/** Most keys whose leases one process remembers; a forgotten lease's points are simply not spent. */
const MAX_LEASED_KEYS = 10_000;

/**
 * How many points one replica may take from Redis at once for a key of this limit: 1 (a round trip
 * per use, exact) below `LEASE_SHARE` points, then up to 1 % of the limit, at most `MAX_LEASE`.
 */
export const leaseCap = (points: number): number => Math.max(1, Math.min(MAX_LEASE, Math.floor(points / LEASE_SHARE)));

const ALLOWED: RateDecision = { ok: true };

const refused = (rejection: RateLimiterRes): RateDecision => ({ ok: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) });

/** Points this replica took from Redis for one key and has not spent yet, all of them counted there already. */
interface Lease {
  tokens: number;
  /** When Redis's window for the key ends (performance.now()): a point is spent in the window that counted it. */
  until: number;
  /** Points the next refill asks for: doubled at each refill within the window, up to the cap. */
  next: number;
  /** The refill on its way: concurrent uses of the key wait for it rather than each asking Redis. */
  refill: Promise<RefillOutcome> | undefined;
}

/** Redis did not answer the refill: each use waiting for it counts in the fallback instead. */
const UNANSWERED = Symbol("unanswered");
/** undefined: points are in the lease now; a decision: Redis refused; UNANSWERED: use the fallback. */
type RefillOutcome = RateDecision | typeof UNANSWERED | undefined;

/**
 * `points` per `durationSeconds` per key, counted in Redis across every replica that shares it.
 * A busy key takes its points from Redis a few at a time (a lease, see `leaseCap`) and spends them
 * here until Redis's window for it ends, asking for the next ones when half are spent: every point
 * spent was counted in Redis in its window, so the limit is never exceeded; points leased but unspent
 * when the window ends refuse a client fewer than `2 × leaseCap` uses early per replica. While Redis does not answer (down, frozen, out of memory,
 * slower than REDIS_TIMEOUT_MS), `fallback` counts in this process instead: the limit degrades to
 * per instance, it never fails a request. The fallback is the bounded token bucket a process without Redis uses.
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
  const cap = leaseCap(points);
  if (cap === 1) {
    return {
      take(key) {
        // Known not to answer: no round trip to wait out.
        if (!redis.up) return fallback.take(key);
        // A round trip per use: the uses of one turn (concurrent envelopes) share one socket write.
        redis.coalesceWrites();
        return limiter.consume(key).then(
          () => ALLOWED,
          (rejection: unknown) => (rejection instanceof RateLimiterRes ? refused(rejection) : fallback.take(key)),
        );
      },
    };
  }

  const leases = new LRUCache<string, Lease>({ max: MAX_LEASED_KEYS });
  const halfWindowMs = (durationSeconds * 1000) / 2;

  /** Takes `lease.next` points from Redis into the lease. */
  const refill = (key: string, lease: Lease): Promise<RefillOutcome> => {
    const asked = lease.next;
    redis.coalesceWrites();
    const granted = (tokens: number, msBeforeNext: number) => {
      const now = performance.now();
      // At least a millisecond, so the uses waiting for these points find them still valid.
      const until = now + Math.max(1, msBeforeNext);
      // A later window ends at least a duration later: the points still held were counted in the one before, and lapse.
      const sameWindow = now < lease.until && until < lease.until + halfWindowMs;
      if (sameWindow) lease.next = Math.min(cap, asked * 2);
      lease.tokens = sameWindow ? lease.tokens + tokens : tokens;
      lease.until = until;
      return undefined;
    };
    return limiter.consume(key, asked).then(
      (result) => granted(asked, result.msBeforeNext),
      (rejection: unknown) => {
        if (!(rejection instanceof RateLimiterRes)) return UNANSWERED;
        // Redis counted all the points asked for: those that were still free before are this replica's.
        const left = points - (rejection.consumedPoints - asked);
        return left > 0 ? granted(left, rejection.msBeforeNext) : refused(rejection);
      },
    );
  };

  const startRefill = (key: string, lease: Lease): Promise<RefillOutcome> => {
    const started = refill(key, lease).finally(() => {
      lease.refill = undefined;
    });
    lease.refill = started;
    return started;
  };

  const take = (key: string): RateDecision | Promise<RateDecision> => {
    let lease = leases.get(key);
    if (lease !== undefined && lease.tokens > 0 && performance.now() < lease.until) {
      lease.tokens--;
      // A busy key's lease half spent: the next points are asked for now, so its uses never wait for them.
      if (lease.next > 1 && lease.tokens < lease.next / 2 && lease.refill === undefined && redis.up) void startRefill(key, lease);
      return ALLOWED;
    }
    if (lease === undefined) {
      lease = { tokens: 0, until: 0, next: 1, refill: undefined };
      leases.set(key, lease);
    }
    let waiting = lease.refill;
    if (waiting === undefined) {
      // Known not to answer: no round trip to wait out.
      if (!redis.up) return fallback.take(key);
      waiting = startRefill(key, lease);
    }
    return waiting.then((outcome) => (outcome === undefined ? take(key) : outcome === UNANSWERED ? fallback.take(key) : outcome));
  };
  return { take };
}
