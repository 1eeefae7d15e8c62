import { type DataCategory, disabledUntil, isRateLimited, type RateLimits, updateRateLimits } from "@sentry/core";
import type { Upstream } from "../check/upstream-url";

export interface UpstreamAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(",") : value) ?? null;

/**
 * The ingest's rate limits per upstream project, read the way Sentry's SDKs read them (their own
 * code: `X-Sentry-Rate-Limits` by category, else `Retry-After`, else 60 s for a bare 429), so
 * that limited envelopes are held in the spool until their limit expires.
 */
export class UpstreamRateLimits {
  readonly #limits = new Map<string, RateLimits>();
  readonly #now: () => number;
  readonly #bare429: string;

  /** `bare429Ms`: how long a 429 without limit headers holds everything (Sentry's SDKs: 60 s). */
  constructor(bare429Ms = 60_000, now: () => number = Date.now) {
    this.#bare429 = String(Math.ceil(bare429Ms / 1000));
    this.#now = now;
  }

  /** Records what an answer says; only 429s and answers carrying limit headers change anything. */
  update(upstream: Upstream, { statusCode, headers }: UpstreamAnswer): void {
    const limits = header(headers["x-sentry-rate-limits"]);
    const retryAfter = header(headers["retry-after"]) ?? (statusCode === 429 && !limits ? this.#bare429 : null);
    if (statusCode !== 429 && !limits && !retryAfter) return;
    const key = upstream.origin + upstream.path;
    const answer = { statusCode, headers: { "x-sentry-rate-limits": limits, "retry-after": retryAfter } };
    this.#limits.set(key, updateRateLimits(this.#limits.get(key) ?? {}, answer, this.#now()));
  }

  /**
   * Until when an envelope with these categories must wait (0: it may go now). An envelope is
   * held while any of its categories is limited, so that no item in it is thrown away; `*`
   * (categories unknown) is held by any limit.
   */
  heldUntil(upstream: Upstream, categories: readonly string[]): number {
    const limits = this.#limits.get(upstream.origin + upstream.path);
    if (!limits) return 0;
    const now = this.#now();
    const relevant = categories.includes("*") ? Object.keys(limits) : ["all", ...categories];
    let until = 0;
    for (const category of relevant as DataCategory[]) {
      if (isRateLimited(limits, category, now)) until = Math.max(until, disabledUntil(limits, category));
    }
    return until;
  }
}
