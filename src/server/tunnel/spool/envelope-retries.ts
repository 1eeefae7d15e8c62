import type { TunnelLogger } from "../contract/types";
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
 * ingest's doing, and Sentry may take the envelope once it is fixed. Every wait is also kept in
 * memory, so that it holds even when the store cannot be written (a full disk).
 */
export class EnvelopeRetries {
  readonly #store: SpoolStore;
  readonly #circuit: Circuit;
  readonly #backoff: Backoff;
  readonly #logger: TunnelLogger | undefined;
  #provisional: Provisional[] = [];
  readonly #holds = new Map<number, number>();

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
    if (!this.#defer(schedule)) return;
    if (provisional) {
      this.#provisional = this.#provisional.filter((entry) => entry.run === run);
      this.#provisional.push({ before: { id: row.id, attempts: row.attempts, nextAttemptAt: row.nextAttemptAt }, run });
    }
    this.#logger?.warn({ id: row.id, answer, attempts: schedule.attempts, retryInMs }, "sentry tunnel spool: delivery failed; retrying this envelope later");
  }

  /** The ingest held the envelope (429) until `until`; no failure is counted against it. */
  held(row: StoredEnvelope, until: number): void {
    this.#defer({ id: row.id, attempts: row.attempts, nextAttemptAt: until });
  }

  /** Its delivery threw: it waits as after a failure, in memory only (the store may be what failed). */
  errored(row: StoredEnvelope): void {
    this.#holds.set(row.id, Date.now() + backoffDelay(this.#backoff, row.attempts));
  }

  /** Until when the envelope waits on a hold this process gave it (0: none). */
  heldUntil(id: number): number {
    const until = this.#holds.get(id);
    if (until === undefined) return 0;
    if (until <= Date.now()) this.#holds.delete(id);
    return until;
  }

  /** It left the spool. */
  forget(id: number): void {
    this.#holds.delete(id);
  }

  /** The circuit opened: the provisional failures that led to it were the ingest's, not the envelopes'. */
  ingestDown(): void {
    const run = this.#circuit.run;
    // The earliest schedule of an envelope counted twice is written last, and stays.
    const undo = this.#provisional
      .filter((entry) => entry.run === run)
      .map((entry) => entry.before)
      .reverse();
    this.#provisional = [];
    if (undo.length === 0) return;
    for (const { id, nextAttemptAt } of undo) this.#holds.set(id, nextAttemptAt);
    try {
      this.#store.reschedule(undo);
    } catch (error) {
      this.#logger?.error({ err: error }, "sentry tunnel spool: could not undo failures counted as the ingest went down");
    }
  }

  /** Holds the envelope until its next attempt, in memory and (if it can be written) in the store; false if the store failed. */
  #defer(schedule: RetrySchedule): boolean {
    this.#holds.set(schedule.id, schedule.nextAttemptAt);
    try {
      this.#store.reschedule([schedule]);
      return true;
    } catch (error) {
      this.#logger?.error({ err: error, id: schedule.id }, "sentry tunnel spool: could not write an envelope's next attempt; it waits in memory");
      return false;
    }
  }
}
