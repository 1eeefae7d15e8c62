import type { Upstream } from "../check/upstream-url";

export type { CircuitState, SpoolDropReason } from "../contract/types";

/** An envelope the ingest could not take when it arrived, as it is kept until it can. */
export interface SpoolEntry {
  /** Milliseconds since the epoch when the tunnel received it. */
  receivedAt: number;
  upstream: Upstream;
  /** What goes upstream with it: content type and encoding, and X-Sentry-Forwarded-For. */
  headers: Record<string, string>;
  /** Sentry data categories of its items (`*` when they could not be read), for rate limits. */
  categories: string[];
  /** Its DSN and items per data category, for the client report if a cap drops it; absent when they could not be read. */
  items?: SpooledItems;
  body: Buffer;
}

/** What a client report says of a spooled envelope. */
export interface SpooledItems {
  dsn: string;
  counts: Record<string, number>;
}

/** When an envelope that failed goes again. */
export interface RetrySchedule {
  id: number;
  /** Failed deliveries counted against it: not those while the ingest was down. */
  attempts: number;
  /** Not sent again before this (ms since the epoch; 0: at once). */
  nextAttemptAt: number;
}

/** A stored envelope without its body, which is read only when it is sent. */
export interface StoredEnvelope extends Omit<SpoolEntry, "body" | "items">, RetrySchedule {
  bytes: number;
}

export interface SpoolStats {
  envelopes: number;
  bytes: number;
  /** undefined when the spool is empty. */
  oldestReceivedAt: number | undefined;
}

/** One upstream's share of the spool, named by its metrics label. */
export interface UpstreamDepth extends SpoolStats {
  upstream: string;
}
