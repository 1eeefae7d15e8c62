import type { TunnelLogger } from "../types";
import { type Backoff, backoffDelay } from "./backoff";
import type { Circuit } from "./circuit";
import type { SpoolStore } from "./store";
import type { RetrySchedule, StoredEnvelope } from "./types";

interface Provisional {
  /** The schedule before this failure was counted. */
  before: RetrySchedule;
  /** The circuit's run when it failed. */
  run: number;
}

/**
 * Each envelope's own failed deliveries and its next attempt, in the store, so that one envelope
 * the ingest keeps failing waits on its own backoff instead of holding up those behind it. It
 * is kept however often it fails, until the age or byte cap drops it: a 5xx or a timeout is the
 * ingest's doing, and Sentry may take the envelope once it is fixed.
 */
export class EnvelopeRetries {
  readonly #store: SpoolStore;
  readonly #circuit: Circuit;
  readonly #backoff: Backoff;
  readonly #logger: TunnelLogger | undefined;
  #provisional: Provisional[] = [];

  constructor(store: SpoolStore, circuit: Circuit, backoff: Backoff, logger: TunnelLogger | undefined) {
    this.#store = store;
    this.#circuit = circuit;
    this.#backoff = backoff;
    this.#logger = logger;
  }

  /**
   * Counts a failure against the envelope and defers it. One that may be the start of an outage
   * (`run`: the circuit's run when it happened, the circuit closed) counts provisionally: undone
   * if the circuit opens before the ingest answers again.
   */
  failed(row: StoredEnvelope, answer: string, run?: number): void {
    const provisional = run === this.#circuit.run;
    // Opened since, with no answer between: the outage's failure.
    if (provisional && this.#circuit.state !== "closed") return;
    const retryInMs = backoffDelay(this.#backoff, row.attempts);
    const schedule = { id: row.id, attempts: row.attempts + 1, nextAttemptAt: Date.now() + retryInMs };
    try {
      this.#store.reschedule([schedule]);
    } catch (error) {
      this.#logger?.error({ err: error, id: row.id }, "sentry tunnel spool: could not defer a failed envelope; it goes again sooner");
      return;
    }
    if (provisional) {
      this.#provisional = this.#provisional.filter((entry) => entry.run === run);
      this.#provisional.push({ before: { id: row.id, attempts: row.attempts, nextAttemptAt: row.nextAttemptAt }, run });
    }
    this.#logger?.warn({ id: row.id, answer, attempts: schedule.attempts, retryInMs }, "sentry tunnel spool: delivery failed; retrying this envelope later");
  }

  /** The circuit opened: the provisional failures that led to it were the ingest's, not the envelopes'. */
  ingestDown(): void {
    const run = this.#circuit.run;
    // The earliest schedule of an envelope counted twice is written last, and stays.
    const undo = this.#provisional.filter((entry) => entry.run === run).map((entry) => entry.before);
    this.#provisional = [];
    if (undo.length === 0) return;
    try {
      this.#store.reschedule(undo.reverse());
    } catch (error) {
      this.#logger?.error({ err: error }, "sentry tunnel spool: could not undo failures counted as the ingest went down");
    }
  }
}
