import { type Backoff, backoffDelay } from "./backoff";
import { EnvelopeRetries } from "./envelope-retries";
import { type Attempt, type AttemptConfig, replayAttempt } from "./replay-attempt";
import type { StoredEnvelope } from "./types";
import type { SpoolWriter } from "./writer";

export interface ReplayConfig extends AttemptConfig {
  writer: SpoolWriter;
  concurrency: number;
  /** Between consecutive failures of any envelopes: spares an ingest that fails them all. */
  backoff: Backoff;
  /** Between one envelope's own failed deliveries. */
  retryBackoff: Backoff;
}

const SCAN_BATCH = 64;

/**
 * Sends the spool to the ingest, oldest first among the envelopes that are due, at most
 * `concurrency` at a time. A failure (unreachable, timeout, 5xx) backs off exponentially with
 * jitter and starts again from the oldest; an open circuit lets only its probe through. An
 * envelope that fails while the ingest is up also waits on its own backoff (EnvelopeRetries),
 * so that it does not hold up the envelopes behind it. Envelopes whose categories are rate
 * limited are skipped until the limit expires. Delivery is at least once: an envelope is
 * removed only after the ingest's 2xx.
 */
export class ReplayWorker {
  readonly #config: ReplayConfig;
  readonly #retries: EnvelopeRetries;
  readonly #inFlight = new Map<number, AbortController>();
  readonly #deliveries = new Set<Promise<void>>();
  #cursor = 0;
  // Envelopes read ahead of the cursor, oldest first.
  #batch: StoredEnvelope[] = [];
  // The earliest time an envelope skipped since the last restart (not due, or rate limited) may go.
  #skippedUntil = Number.POSITIVE_INFINITY;
  #failures = 0;
  #retryAt = 0;
  #stopped = false;
  #wake: (() => void) | undefined;
  #loop: Promise<void> | undefined;

  constructor(config: ReplayConfig) {
    this.#config = config;
    this.#retries = new EnvelopeRetries(config.store, config.circuit, config.retryBackoff, config.logger);
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
    this.#retries.ingestDown();
    this.#restart();
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
      const { circuit, concurrency } = this.#config;
      const now = Date.now();
      const limit = circuit.state === "closed" ? concurrency : 1;
      let wait = Math.max(this.#retryAt, circuit.state === "open" ? circuit.retryAt : 0) - now;
      if (wait <= 0 && this.#inFlight.size < limit) {
        const next = this.#next(now);
        if (typeof next === "object") {
          if (circuit.tryUpstream()) {
            this.#deliver(next);
            continue;
          }
          // Another request is the probe; the circuit's change wakes this loop.
          wait = circuit.state === "open" ? circuit.retryAt - now : Number.POSITIVE_INFINITY;
        } else {
          wait = next;
        }
      } else if (wait <= 0) {
        wait = Number.POSITIVE_INFINITY;
      }
      await this.#sleep(wait);
    }
    await Promise.all(this.#deliveries);
  }

  /** The next envelope to send, or how long to wait for one (until one is due, or for news). */
  #next(now: number): StoredEnvelope | number {
    const { store, writer, rateLimits } = this.#config;
    // A skipped envelope has come due: start again from the oldest so that it goes in its turn.
    if (this.#skippedUntil <= now) this.#restart();
    for (;;) {
      if (this.#batch.length === 0) {
        this.#batch = store.after(this.#cursor, SCAN_BATCH);
        if (this.#batch.length === 0) break;
      }
      for (let row = this.#batch[0]; row; row = this.#batch[0]) {
        // Returned, it stays first: if it cannot go now, the next look starts with it.
        if (!this.#inFlight.has(row.id) && !writer.isRemoving(row.id)) {
          const until = Math.max(row.nextAttemptAt, rateLimits.heldUntil(row.upstream, row.categories));
          if (until <= now) return row;
          this.#skippedUntil = Math.min(this.#skippedUntil, until);
        }
        this.#cursor = row.id;
        this.#batch.shift();
      }
    }
    // End of the spool: the next pass starts again from the oldest.
    const wait = this.#skippedUntil - now;
    this.#restart();
    return wait;
  }

  #restart(): void {
    this.#cursor = 0;
    this.#batch = [];
    this.#skippedUntil = Number.POSITIVE_INFINITY;
  }

  #deliver(row: StoredEnvelope): void {
    const controller = new AbortController();
    this.#inFlight.set(row.id, controller);
    const delivery = replayAttempt(this.#config, row, controller.signal)
      .then((attempt) => this.#settle(row, attempt))
      .catch((error: unknown) => this.#config.logger?.error({ err: error, id: row.id }, "sentry tunnel spool: replay failed"))
      .finally(() => {
        this.#inFlight.delete(row.id);
        this.#deliveries.delete(delivery);
        this.notify();
      });
    this.#deliveries.add(delivery);
  }

  #settle(row: StoredEnvelope, { outcome, answer, run }: Attempt): void {
    if (outcome === "delivered" || outcome === "refused") this.#config.writer.remove(row.id);
    if (outcome === "refused") this.#config.observer?.spoolDropped?.("rejected", 1);
    if (outcome === "failed" || outcome === "failed_maybe_down") this.#retries.failed(row, answer, run);
    if (outcome === "failed" || outcome === "failed_maybe_down" || outcome === "ingest_down") {
      this.#retryAt = Date.now() + backoffDelay(this.#config.backoff, this.#failures);
      this.#failures += 1;
      this.#restart();
    } else if (outcome !== "stopped" && outcome !== "gone") {
      this.#failures = 0;
      this.#retryAt = 0;
    }
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
