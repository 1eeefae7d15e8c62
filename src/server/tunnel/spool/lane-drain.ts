/**
 * One replay worker's last delivery before the process exits: done once nothing more of its
 * upstream's envelopes can go before the deadline, or once its circuit opens (the ingest is down,
 * and what is left is safer on disk than waited for).
 */
export class LaneDrain {
  readonly done: Promise<void>;
  readonly #deadline: number;
  #ingestDown = false;
  #resolve!: () => void;

  constructor(deadline: number) {
    this.#deadline = deadline;
    this.done = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  ingestDown(): void {
    this.#ingestDown = true;
  }

  /** The worker started nothing and waits `waitMs` for its next delivery, with `inFlight` still under way. */
  idle(now: number, waitMs: number, inFlight: number): void {
    if (inFlight === 0 && (this.#ingestDown || now + waitMs >= this.#deadline)) this.#resolve();
  }
}
