import { LRUCache } from "lru-cache";

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * A token bucket per client IP: bursts up to the per-minute limit, refilled evenly over the
 * minute. The LRU bounds memory; a forgotten client simply starts again with a full bucket.
 * No TTL on purpose: lru-cache's TTL bookkeeping would add timers, and stale buckets just refill.
 */
export class RateLimiter {
  readonly #capacity: number;
  readonly #perMs: number;
  readonly #buckets: LRUCache<string, Bucket>;
  readonly #now: () => number;

  constructor(perMinute: number, maxClients: number, now: () => number = () => performance.now()) {
    if (!Number.isInteger(perMinute) || perMinute < 1) throw new Error("rate limit must be a positive integer");
    if (!Number.isInteger(maxClients) || maxClients < 1) throw new Error("rateLimitMaxClients must be a positive integer");
    this.#capacity = perMinute;
    this.#perMs = perMinute / 60_000;
    this.#buckets = new LRUCache({ max: maxClients });
    this.#now = now;
  }

  take(client: string): RateDecision {
    const now = this.#now();
    const bucket = this.#buckets.get(client) ?? { tokens: this.#capacity, updatedAt: now };
    const tokens = Math.min(this.#capacity, bucket.tokens + (now - bucket.updatedAt) * this.#perMs);
    const allowed = tokens >= 1;
    this.#buckets.set(client, { tokens: allowed ? tokens - 1 : tokens, updatedAt: now });
    if (allowed) return { ok: true };
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / this.#perMs / 1000)) };
  }

  get size(): number {
    return this.#buckets.size;
  }
}
