import type { FetcherStatus } from "../../../shared/navigation/router-state";

/** A fetcher as the store keeps it: after an action, loading until the page's data is this fresh. */
export interface FetcherRecord extends FetcherStatus {
  waitFor?: number;
}

export const IDLE_FETCHER: FetcherRecord = { state: "idle", data: undefined, error: undefined, formData: undefined };

/**
 * The fetchers once the page shows data this fresh: those waiting for it turn idle, in the same
 * state change as the data, so an optimistic value never flickers back to the old one.
 */
export function settled(fetchers: ReadonlyMap<string, FetcherRecord>, freshAsOf: number): ReadonlyMap<string, FetcherRecord> {
  const waiting = [...fetchers].filter(([, fetcher]) => fetcher.waitFor !== undefined && fetcher.waitFor <= freshAsOf);
  if (waiting.length === 0) return fetchers;
  const next = new Map(fetchers);
  for (const [key, fetcher] of waiting) next.set(key, { state: "idle", data: fetcher.data, error: fetcher.error, formData: undefined });
  return next;
}
