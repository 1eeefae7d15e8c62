import type { RequestDispatcher, TunnelLogger, TunnelObserver } from "../contract/types";
import { type Backoff, backoffDelay } from "./backoff";
import { Circuit } from "./circuit";
import { UpstreamRateLimits } from "./rate-limits";
import { type ReplayConfig, ReplayWorker } from "./replay-worker";
import { type DroppedByOrigin, type DroppedItems, droppedItemsOf, SpoolStore } from "./store";
import type { SpoolEntry, SpoolStats, UpstreamDepth } from "./types";
import { depthsByLabel } from "./upstream-depths";
import { type UpstreamLane, UpstreamLanes } from "./upstream-lanes";
import { SpoolWriter } from "./writer";

export { type DroppedItems, SpoolOpenError, SpoolStore } from "./store";
export { INGEST_DOWN_STATUSES } from "./replay-attempt";
export type { CircuitState, SpoolDropReason, SpooledItems, SpoolStats, UpstreamDepth } from "./types";

export interface SpoolOptions {
  /** Where the SQLite store lives; created if missing. */
  dir: string;
  /** Largest envelope kept; larger ones get 503 when the ingest is down. */
  maxEnvelopeBytes: number;
  maxBytes: number;
  maxAgeSeconds: number;
  /**
   * Bytes of streamed envelopes held in memory, across uploads, until the ingest answers, so
   * that one it fails mid-way can still be spooled; past it an envelope streams without a copy
   * and gets 503 if the ingest then fails. At least maxEnvelopeBytes.
   */
  maxMemoryBytes?: number;
  /** Deliveries at once to each upstream while its ingest is up. */
  concurrency?: number;
  /** Consecutive failures that open an upstream's circuit. */
  failureThreshold?: number;
  backoff?: Backoff;
  /** Between one envelope's own failed deliveries while the ingest takes others. */
  retryBackoff?: Backoff;
  /** How long a 429 without usable limit headers holds envelopes (whole seconds; Sentry's SDKs: 60 s). */
  rateLimitHoldMs?: number;
  /** Opened by the caller instead of from `dir` (tests). */
  store?: SpoolStore;
}

interface SpoolContext {
  dispatcher: RequestDispatcher;
  /** Asked again before each replay (its DSN still allowed?): an envelope it refuses is dropped unsent; absent, all go. */
  stillAllowed?: (headers: Record<string, string>, body: Buffer) => Promise<boolean>;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  observer: TunnelObserver | undefined;
  logger: TunnelLogger | undefined;
  /** An upstream origin's name in metrics: one of a few known values, whatever the spool holds. */
  upstreamLabel: (origin: string) => string;
  /** Envelopes a cap dropped whose DSN and items were recorded, for the client reports. */
  droppedItems?: (reason: "max_age" | "max_bytes", dropped: DroppedItems[]) => void;
}

const DEFAULT_CONCURRENCY = 4;
const DEFAULT_FAILURE_THRESHOLD = 3;
// Capped at 10 s: an ingest back after a short outage is probed within 10 s and then gets the backlog at full concurrency.
const DEFAULT_BACKOFF: Backoff = { baseMs: 500, capMs: 10_000 };
// One envelope the ingest keeps failing: retried after about 1 s, doubling to half an hour (a few dozen tries a day).
const DEFAULT_RETRY_BACKOFF: Backoff = { baseMs: 1_000, capMs: 30 * 60_000 };
// A bare 429 means 60 s to Sentry's SDKs; so it does here, for an envelope its headers leave free.
const DEFAULT_RATE_LIMIT_HOLD_MS = 60_000;
const AGE_CHECK_MS = 60_000;
// In-flight deliveries get this long to finish at shutdown, then are aborted (they stay spooled).
const STOP_GRACE_MS = 2_000;

/** Envelopes the ingest could not take, kept on disk and delivered, upstream by upstream, once it can. */
export class Spool {
  readonly rateLimits: UpstreamRateLimits;
  readonly maxEnvelopeBytes: number;
  readonly #store: SpoolStore;
  readonly #writer: SpoolWriter;
  readonly #lanes: UpstreamLanes;
  readonly #maxAgeMs: number;
  readonly #maxBytes: number;
  readonly #context: SpoolContext;
  #ageTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: SpoolOptions, context: SpoolContext) {
    const { observer, logger } = context;
    if (options.maxEnvelopeBytes > options.maxBytes) {
      throw new Error("Sentry tunnel: spool maxEnvelopeBytes must not exceed spool maxBytes");
    }
    if (options.maxMemoryBytes !== undefined && options.maxEnvelopeBytes > options.maxMemoryBytes) {
      throw new Error("Sentry tunnel: spool maxMemoryBytes must not be less than spool maxEnvelopeBytes");
    }
    this.maxEnvelopeBytes = options.maxEnvelopeBytes;
    this.#maxAgeMs = options.maxAgeSeconds * 1000;
    this.#context = context;
    this.#store = options.store ?? SpoolStore.open(options.dir, logger);
    this.#maxBytes = options.maxBytes;
    const rateLimitHoldMs = options.rateLimitHoldMs ?? DEFAULT_RATE_LIMIT_HOLD_MS;
    this.rateLimits = new UpstreamRateLimits(rateLimitHoldMs);
    const retryBackoff = options.retryBackoff ?? DEFAULT_RETRY_BACKOFF;
    this.#writer = new SpoolWriter(
      this.#store,
      options.maxBytes,
      {
        capDrop: (dropped) => this.#dropped("max_bytes", dropped),
        removeError: (error, retryInMs) =>
          logger?.error({ err: error, retryInMs }, "sentry tunnel spool: could not remove delivered envelopes; retrying the removal, not the delivery"),
      },
      (failures) => backoffDelay(retryBackoff, failures),
    );
    const backoff = options.backoff ?? DEFAULT_BACKOFF;
    const replay: Omit<ReplayConfig, "origin" | "upstream" | "circuit"> = {
      ...context,
      stillAllowed: context.stillAllowed,
      store: this.#store,
      writer: this.#writer,
      rateLimits: this.rateLimits,
      concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
      backoff,
      retryBackoff,
      rateLimitHoldMs,
    };
    const threshold = options.failureThreshold ?? DEFAULT_FAILURE_THRESHOLD;
    this.#lanes = new UpstreamLanes((origin) => {
      const upstream = context.upstreamLabel(origin);
      const lane = {} as UpstreamLane;
      lane.circuit = new Circuit(threshold, backoff, (state) => {
        observer?.circuitChanged?.(state, upstream);
        if (state !== "half_open") logger?.warn({ state, upstream }, `sentry tunnel: circuit ${state}`);
        if (state === "open") lane.worker.ingestDown();
        lane.worker.notify();
      });
      lane.worker = new ReplayWorker({ ...replay, origin, upstream, circuit: lane.circuit });
      observer?.circuitChanged?.("closed", upstream);
      return lane;
    });
  }

  /** The circuit to this upstream's ingest: whether an envelope for it should be sent or spooled at once. */
  circuitFor(origin: string): Circuit {
    return this.#lanes.lane(origin).circuit;
  }

  /** Starts delivering what is spooled (from a previous run too) and the caps, a byte cap lowered since included. */
  start(): void {
    this.#dropOld();
    try {
      this.#dropped("max_bytes", this.#store.trimTo(this.#maxBytes));
    } catch (error) {
      this.#context.logger?.error({ err: error }, "sentry tunnel spool: could not drop envelopes over the byte cap");
    }
    this.#ageTimer = setInterval(() => this.#dropOld(), AGE_CHECK_MS);
    this.#ageTimer.unref();
    this.#lanes.start(this.#store.origins());
  }

  /** Resolves once the envelope is on disk; rejects when it could not be written (full, read-only, closed). */
  async add(entry: SpoolEntry): Promise<void> {
    if (this.#closed) throw new Error("spool is closed");
    await this.#writer.add(entry);
    this.#context.observer?.spooled?.(entry.body.length);
    this.#lanes.lane(entry.upstream.origin).worker.notify();
  }

  stats(): SpoolStats {
    return this.#store.stats();
  }

  /** The depth per upstream label; upstreams that share a label (`other`) are added up. */
  depths(): UpstreamDepth[] {
    return depthsByLabel(this.#store.statsByOrigin(), this.#context.upstreamLabel);
  }

  /**
   * Before exit, once no more envelopes come: each upstream's ingest gets what it will take until
   * `deadline` (ms since the epoch), at once, without waiting out a backoff; one found down keeps its envelopes.
   */
  async drain(deadline: number): Promise<void> {
    const held = this.#closed || deadline <= Date.now() ? 0 : this.#count();
    if (held === 0) return;
    this.#context.logger?.info({ envelopes: held, deadlineInMs: deadline - Date.now() }, "sentry tunnel spool: delivering what it holds before exit");
    await this.#lanes.drain(deadline);
  }

  /** Stops the worker between envelopes, writes what is queued, closes the store, and logs what it keeps. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#ageTimer);
    await this.#lanes.stop(STOP_GRACE_MS);
    this.#writer.close();
    const kept = this.#count();
    if (kept !== 0) this.#context.logger?.warn({ envelopes: kept }, "sentry tunnel spool: envelopes stay on disk until the next start");
    this.#store.close();
  }

  /** Envelopes on disk; undefined when the store cannot say. */
  #count(): number | undefined {
    try {
      return this.#store.stats().envelopes;
    } catch (error) {
      this.#context.logger?.error({ err: error }, "sentry tunnel spool: could not count its envelopes");
      return undefined;
    }
  }

  #dropOld(): void {
    try {
      this.#dropped("max_age", this.#store.removeOlderThan(Date.now() - this.#maxAgeMs));
    } catch (error) {
      this.#context.logger?.error({ err: error }, "sentry tunnel spool: could not drop old envelopes");
    }
  }

  #dropped(reason: "max_age" | "max_bytes", dropped: DroppedByOrigin): void {
    const items = droppedItemsOf(dropped);
    if (items.length > 0) this.#context.droppedItems?.(reason, items);
    for (const [origin, count] of dropped) {
      const upstream = this.#context.upstreamLabel(origin);
      this.#context.observer?.spoolDropped?.(reason, count, upstream);
      this.#context.logger?.warn({ reason, count, upstream }, "sentry tunnel spool: dropped the oldest envelopes");
    }
  }
}
