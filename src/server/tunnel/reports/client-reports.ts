import type { Upstream } from "../check/upstream-url";
import type { TunnelLogger, TunnelObserver } from "../contract/types";
import { clientReportEnvelope, type DiscardedEvents, type DiscardReason } from "./client-report";

/** Where a DSN's report goes: the DSN as its envelopes name it, and its ingest. */
export interface ReportTarget {
  dsn: string;
  upstream: Upstream;
}

/** Hands a report envelope on (to the spool, or straight upstream without one); rejects when it could not. */
export type ReportSender = (upstream: Upstream, envelope: Buffer) => Promise<void>;

interface Pending {
  dsn: string;
  upstream: Upstream;
  /** Quantity by `reason category`. */
  counts: Map<string, number>;
}

/**
 * What the tunnel dropped, summed per DSN, and sent to that DSN's ingest as one `client_report`
 * envelope per interval: recording is a few counter additions, nothing per request goes upstream.
 */
export class ClientReports {
  readonly #pending = new Map<string, Pending>();
  readonly #send: ReportSender;
  readonly #observer: TunnelObserver | undefined;
  readonly #logger: TunnelLogger | undefined;
  readonly #timer: NodeJS.Timeout;
  #flushing: Promise<void> = Promise.resolve();

  constructor(intervalMs: number, send: ReportSender, observer?: TunnelObserver, logger?: TunnelLogger) {
    this.#send = send;
    this.#observer = observer;
    this.#logger = logger;
    this.#timer = setInterval(() => void this.flush(), intervalMs);
    this.#timer.unref();
  }

  /** Counts `counts` (items per data category) as discarded for `reason`. */
  record(target: ReportTarget, reason: DiscardReason, counts: ReadonlyMap<string, number>): void {
    if (counts.size === 0) return;
    const key = target.upstream.origin + target.upstream.path;
    let pending = this.#pending.get(key);
    if (!pending) {
      pending = { dsn: target.dsn, upstream: target.upstream, counts: new Map() };
      this.#pending.set(key, pending);
    }
    for (const [category, quantity] of counts) {
      const countKey = `${reason} ${category}`;
      pending.counts.set(countKey, (pending.counts.get(countKey) ?? 0) + quantity);
      this.#observer?.discarded?.(reason, category, quantity);
    }
  }

  /** Sends one report per DSN with drops since the last; resolves once each is handed on. */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#flushNow());
    return this.#flushing;
  }

  /** Stops the interval and hands on what is left (the spool keeps it for the next start). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }

  async #flushNow(): Promise<void> {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    await Promise.all(
      pending.map(async ({ dsn, upstream, counts }) => {
        const discarded: DiscardedEvents[] = [...counts].map(([key, quantity]) => {
          const [reason, category] = key.split(" ") as [DiscardReason, string];
          return { reason, category, quantity };
        });
        try {
          await this.#send(upstream, clientReportEnvelope(dsn, discarded));
        } catch (error) {
          this.#logger?.warn({ err: error, upstream: upstream.origin }, "sentry tunnel: a client report could not be sent");
        }
      }),
    );
  }
}
