import { LRUCache } from "lru-cache";
import type { Limiter, RateDecision } from "./limiter";

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * A token bucket per key, in this process alone: bursts up to `points`, refilled evenly over
 * `durationMs`. The LRU bounds memory; a forgotten key simply starts again with a full bucket.
 * No TTL on purpose: lru-cache's TTL bookkeeping would add timers, and stale buckets just refill.
 */
export class LocalLimiter implements Limiter {
  readonly #capacity: number;
  readonly #perMs: number;
  readonly #buckets: LRUCache<string, Bucket>;
  readonly #now: () => number;

  constructor(points: number, durationMs: number, maxKeys: number, now: () => number = () => performance.now()) {
    if (!Number.isInteger(points) || points < 1) throw new Error("rate limit must be a positive integer");
    if (!Number.isInteger(maxKeys) || maxKeys < 1) throw new Error("rateLimitMaxClients must be a positive integer");
    this.#capacity = points;
    this.#perMs = points / durationMs;
    this.#buckets = new LRUCache({ max: maxKeys });
    this.#now = now;
  }

  take(key: string): RateDecision {
    const now = this.#now();
    const bucket = this.#buckets.get(key) ?? { tokens: this.#capacity, updatedAt: now };
    const tokens = Math.min(this.#capacity, bucket.tokens + (now - bucket.updatedAt) * this.#perMs);
    const allowed = tokens >= 1;
    this.#buckets.set(key, { tokens: allowed ? tokens - 1 : tokens, updatedAt: now });
    if (allowed) return { ok: true };
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / this.#perMs / 1000)) };
  }

  get size(): number {
    return this.#buckets.size;
  }
}
