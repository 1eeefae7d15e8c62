import { type Backoff, backoffDelay } from "./backoff";
import type { CircuitState } from "./types";

/** What tryUpstream() let through: any request while closed, or the one probe of an open circuit. */
export type UpstreamPass = "closed" | "probe";

/**
 * Whether the ingest is known to be down. After `threshold` consecutive failures it opens:
 * envelopes then go to the spool at once instead of each waiting for a timeout. Once its
 * backoff has passed, one request (a live envelope or the replay worker's next one) is let
 * through as the probe; its answer closes the circuit or opens it again for longer.
 */
export class Circuit {
  #state: CircuitState = "closed";
  #failures = 0;
  #run = 0;
  #opened = 0;
  #retryAt = 0;
  readonly #threshold: number;
  readonly #backoff: Backoff;
  readonly #now: () => number;
  readonly #onChange: ((state: CircuitState) => void) | undefined;

  constructor(threshold: number, backoff: Backoff, onChange?: (state: CircuitState) => void, now: () => number = Date.now) {
    this.#threshold = threshold;
    this.#backoff = backoff;
    this.#onChange = onChange;
    this.#now = now;
  }

  get state(): CircuitState {
    return this.#state;
  }

  /** When an open circuit lets its next probe through. */
  get retryAt(): number {
    return this.#retryAt;
  }

  /** Changes each time the ingest answers: failures seen under one value came with no answer between them. */
  get run(): number {
    return this.#run;
  }

  /** May a request go to the ingest now? Always while closed; once open, only the probe. */
  tryUpstream(): UpstreamPass | undefined {
    if (this.#state === "closed") return "closed";
    if (this.#state === "half_open" || this.#now() < this.#retryAt) return undefined;
    this.#set("half_open");
    return "probe";
  }

  /** An open circuit lets its probe through now instead of after its backoff (shutdown: one last look at the ingest). */
  probeNow(): void {
    if (this.#state === "open") this.#retryAt = this.#now();
  }

  /** The ingest answered (anything but 502, 503 or 504). */
  succeeded(): void {
    this.#run += 1;
    this.#failures = 0;
    this.#opened = 0;
    if (this.#state !== "closed") this.#set("closed");
  }

  /** Unreachable, timed out, or 502/503/504. */
  failed(): void {
    this.#failures += 1;
    if (this.#state === "half_open" || (this.#state === "closed" && this.#failures >= this.#threshold)) {
      this.#retryAt = this.#now() + backoffDelay(this.#backoff, this.#opened);
      this.#opened += 1;
      this.#set("open");
    }
  }

  /**
   * A request that ended without a verdict (its client went away, or it was stopped). Only the
   * probe's matters: the next request probes instead. Any other, let through before the circuit
   * opened, must not reopen it while the real probe is in flight.
   */
  abandoned(pass: UpstreamPass | undefined): void {
    if (pass === "probe" && this.#state === "half_open") this.#set("open");
  }

  #set(state: CircuitState): void {
    this.#state = state;
    this.#onChange?.(state);
  }
}
