import type { Circuit } from "./circuit";
import type { ReplayWorker } from "./replay-worker";

/** One upstream's own circuit and replay worker. */
export interface UpstreamLane {
  circuit: Circuit;
  worker: ReplayWorker;
}

/**
 * A lane per upstream origin, made when its first envelope comes (or at start, for what an
 * earlier run spooled): one ingest's outage, probe or backoff never holds up another's envelopes.
 * Origins come only from the allow list and the spool, so the lanes are few.
 */
export class UpstreamLanes {
  readonly #lanes = new Map<string, UpstreamLane>();
  readonly #make: (origin: string) => UpstreamLane;
  #running = false;

  constructor(make: (origin: string) => UpstreamLane) {
    this.#make = make;
  }

  lane(origin: string): UpstreamLane {
    let lane = this.#lanes.get(origin);
    if (!lane) {
      lane = this.#make(origin);
      this.#lanes.set(origin, lane);
      if (this.#running) lane.worker.start();
    }
    return lane;
  }

  /** Starts a worker for each of these origins and for every lane made from now on. */
  start(origins: Iterable<string>): void {
    for (const origin of origins) this.lane(origin);
    this.#running = true;
    for (const { worker } of this.#lanes.values()) worker.start();
  }

  /** Stops every worker (see ReplayWorker.stop); lanes made afterwards never start. */
  async stop(graceMs: number): Promise<void> {
    this.#running = false;
    await Promise.all([...this.#lanes.values()].map(({ worker }) => worker.stop(graceMs)));
  }

  /** Every worker delivers what it can before `deadline` (see ReplayWorker.drain); resolves when all are done, or at the deadline. */
  async drain(deadline: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(deadline - Date.now(), 0));
    });
    await Promise.race([Promise.all([...this.#lanes.values()].map(({ worker }) => worker.drain(deadline))), timeUp]);
    clearTimeout(timer);
  }

  values(): IterableIterator<UpstreamLane> {
    return this.#lanes.values();
  }
}
