import { type Backoff, backoffDelay } from "./backoff";
import type { UpstreamPass } from "./circuit";
import { EnvelopeRetries } from "./envelope-retries";
import { LaneDrain } from "./lane-drain";
import { type Attempt, type AttemptConfig, replayAttempt } from "./replay-attempt";
import { ReplayQueue } from "./replay-queue";
import type { StoredEnvelope } from "./types";
import type { SpoolWriter } from "./writer";

export interface ReplayConfig extends AttemptConfig {
  /** The upstream whose envelopes this worker delivers (its `circuit` is that upstream's). */
  origin: string;
  /** That upstream's metrics label. */
  upstream: string;
  writer: SpoolWriter;
  concurrency: number;
  /** Between consecutive failures of any envelopes: spares an ingest that fails them all. */
  backoff: Backoff;
  /** Between one envelope's own failed deliveries. */
  retryBackoff: Backoff;
  /** How long a 429 that names no limit on the envelope's categories holds it. */
  rateLimitHoldMs: number;
}

/**
 * Sends one upstream's share of the spool to its ingest, oldest first among the envelopes that are due (those that never
 * failed before those that did, see ReplayQueue), at most `concurrency` at a time. A failure
 * that may be the ingest's being down (unreachable, timeout, 502/503/504, an error) pauses all
 * deliveries on an exponential backoff with jitter and starts again from the oldest; one the
 * ingest answered (another 5xx) pauses only the envelopes that failed before. An open circuit
 * lets only its probe through. Each envelope that fails also waits on its own backoff
 * (EnvelopeRetries); one the ingest rate-limits waits for its limit. Nothing is retried without
 * a wait. Delivery is at least once: an envelope is removed only after the ingest's 2xx.
 */
export class ReplayWorker {
  readonly #config: ReplayConfig;
  readonly #retries: EnvelopeRetries;
  readonly #queue: ReplayQueue;
  readonly #inFlight = new Map<number, AbortController>();
  readonly #deliveries = new Set<Promise<void>>();
  #failures = 0;
  // No delivery at all before this; none of an envelope that failed before until #retryingAt.
  #retryAt = 0;
  #retryingAt = 0;
  #stopped = false;
  #wake: (() => void) | undefined;
  #drain: LaneDrain | undefined;
  #loop: Promise<void> | undefined;

  constructor(config: ReplayConfig) {
    this.#config = config;
    this.#retries = new EnvelopeRetries(config.store, config.circuit, config.retryBackoff, config.logger);
    this.#queue = new ReplayQueue(config.store, config.origin);
  }

  start(): void {
    this.#loop ??= this.#run();
  }

  /** Something changed (an envelope spooled, a delivery ended): look again. */
  notify(): void {
    this.#wake?.();
  }

  /** The circuit opened: failures that may have been the outage's start no longer count, and the oldest go first again. */
  ingestDown(): void {
    this.#drain?.ingestDown();
    this.#retries.ingestDown();
    this.#queue.restart();
  }

  /**
   * Before the process exits: delivers at once, without waiting out a backoff, what may go before
   * `deadline`; resolves when nothing more can (see LaneDrain). Envelopes' own holds still apply.
   */
  drain(deadline: number): Promise<void> {
    this.#drain ??= new LaneDrain(deadline);
    this.#config.circuit.probeNow();
    this.#retryAt = 0;
    this.#retryingAt = 0;
    this.#queue.restart();
    this.notify();
    return this.#drain.done;
  }

  /** Starts nothing new; deliveries under way get `graceMs` to finish, then are aborted (they stay spooled). */
  async stop(graceMs: number): Promise<void> {
    this.#stopped = true;
    this.notify();
    const settled = this.#loop ?? Promise.resolve();
    const timer = setTimeout(() => {
      for (const controller of this.#inFlight.values()) controller.abort();
    }, graceMs);
    await settled;
    clearTimeout(timer);
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      let wait: number;
      try {
        wait = this.#step(Date.now());
      } catch (error) {
        // The store failed (I/O error, or worse): replay pauses, and tries again, for the process's life.
        this.#config.logger?.error({ err: error }, "sentry tunnel spool: replay failed; retrying after a pause");
        this.#pause(true);
        wait = Math.max(this.#retryAt - Date.now(), 1);
      }
      // 0 means a delivery started; any other answer waits, at least a millisecond, so no path spins.
      if (wait === 0) continue;
      this.#drain?.idle(Date.now(), wait, this.#inFlight.size);
      await this.#sleep(Math.max(wait, 1));
    }
    await Promise.all(this.#deliveries);
  }

  /** Starts the next delivery if one may go (0), else says how long to wait for one. */
  #step(now: number): number {
    const { circuit, concurrency } = this.#config;
    const limit = circuit.state === "closed" ? concurrency : 1;
    const wait = Math.max(this.#retryAt, circuit.state === "open" ? circuit.retryAt : 0) - now;
    if (wait > 0) return wait;
    if (this.#inFlight.size >= limit) return Number.POSITIVE_INFINITY;
    const next = this.#queue.next(now, (row) => this.#dueAt(row), this.#retryingAt);
    if (typeof next === "number") return next;
    const pass = circuit.tryUpstream();
    if (pass) {
      this.#deliver(next, pass);
      return 0;
    }
    // Another request is the probe; the circuit's change wakes this loop.
    return circuit.state === "open" ? circuit.retryAt - now : Number.POSITIVE_INFINITY;
  }

  #dueAt(row: StoredEnvelope): number | "busy" {
    if (this.#inFlight.has(row.id) || this.#config.writer.isRemoving(row.id)) return "busy";
    const limited = this.#config.rateLimits.heldUntil(row.upstream, row.categories);
    return Math.max(row.nextAttemptAt, this.#retries.heldUntil(row.id), limited);
  }

  #deliver(row: StoredEnvelope, pass: UpstreamPass): void {
    const controller = new AbortController();
    this.#inFlight.set(row.id, controller);
    const delivery = replayAttempt(this.#config, row, pass, controller.signal)
      .then(
        (attempt) => this.#settle(row, attempt),
        (error: unknown) => this.#errored(row, pass, error),
      )
      .catch((error: unknown) => this.#config.logger?.error({ err: error, id: row.id }, "sentry tunnel spool: replay failed"))
      .finally(() => {
        this.#inFlight.delete(row.id);
        this.#deliveries.delete(delivery);
        this.notify();
      });
    this.#deliveries.add(delivery);
  }

  #settle(row: StoredEnvelope, { outcome, answer, run }: Attempt): void {
    const { writer, observer, rateLimits, rateLimitHoldMs } = this.#config;
    if (outcome === "delivered" || outcome === "refused" || outcome === "not_allowed") {
      writer.remove(row.id);
      this.#retries.forget(row.id);
    }
    // Dropped by a cap after the queue read it: read again from the store, or the queue would offer
    // the same row at once, forever, in microtasks that starve the event loop.
    if (outcome === "gone") this.#queue.restart();
    if (outcome === "refused") observer?.spoolDropped?.("rejected", 1, this.#config.upstream);
    if (outcome === "not_allowed") observer?.spoolDropped?.("dsn_not_allowed", 1, this.#config.upstream);
    if (outcome === "held") {
      // A 429 whose headers leave this envelope free (Retry-After: 0, a past date, other categories) still holds it.
      const now = Date.now();
      const limited = rateLimits.heldUntil(row.upstream, row.categories);
      this.#retries.held(row, limited > now ? limited : now + rateLimitHoldMs);
    }
    if (outcome === "failed" || outcome === "failed_maybe_down") this.#retries.failed(row, answer, run);
    if (outcome === "failed" || outcome === "failed_maybe_down" || outcome === "ingest_down") {
      this.#pause(outcome !== "failed");
    } else if (outcome !== "stopped" && outcome !== "gone" && outcome !== "not_allowed") {
      this.#failures = 0;
      this.#retryAt = 0;
      this.#retryingAt = 0;
    }
  }

  /** The delivery threw: the envelope and the worker wait as after a failure. */
  #errored(row: StoredEnvelope, pass: UpstreamPass, error: unknown): void {
    this.#config.logger?.error({ err: error, id: row.id }, "sentry tunnel spool: replay failed; retrying this envelope later");
    this.#config.circuit.abandoned(pass);
    this.#retries.errored(row);
    this.#pause(true);
  }

  /** Backs off: every delivery (`all`), or only those of envelopes that failed before. */
  #pause(all: boolean): void {
    const until = Date.now() + backoffDelay(this.#config.backoff, this.#failures);
    this.#failures += 1;
    this.#retryingAt = until;
    if (all) this.#retryAt = until;
    this.#queue.restart();
  }
  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = Number.isFinite(ms) ? setTimeout(done, Math.min(ms, 2 ** 31 - 1)) : undefined;
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = () => {
        this.#wake = undefined;
        done();
      };
    });
  }
}
