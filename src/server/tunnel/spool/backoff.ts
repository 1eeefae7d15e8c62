/** Exponential backoff with jitter: attempt 0 waits about `baseMs`, doubling up to `capMs`. */
export interface Backoff {
  baseMs: number;
  capMs: number;
}

/**
 * A delay between half and all of the exponential step, so that several instances recovering
 * from one outage do not all probe the ingest at the same moment.
 */
export function backoffDelay({ baseMs, capMs }: Backoff, attempt: number, random: () => number = Math.random): number {
  const step = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(step / 2 + (step / 2) * random());
}
