export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/** Counts one use by `key` (a client IP, an account name) and says whether it is within the limit. */
export interface Limiter {
  take(key: string): RateDecision | Promise<RateDecision>;
}
