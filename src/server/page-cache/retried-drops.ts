/** Tags waiting at most: past it, the oldest is given up (a long outage with many distinct tags). */
const MAX_PENDING = 10_000;

export interface RetriedDropsOptions {
  /** How often drops that failed are tried again. */
  retryMs?: number;
  /** How long a drop is tried for before it is given up. */
  giveUpMs?: number;
  /** The first failure of an outage (the retries are quiet). */
  onError?: (error: unknown) => void;
  /** A drop given up: the other replicas may serve the tag's pages until they expire. */
  onGiveUp?: (tag: string, error: unknown) => void;
}

export interface RetriedDrops {
  /** Drops `tag` in the shared store; when it cannot now, tries again every `retryMs` for up to `giveUpMs`. */
  drop(tag: string): Promise<void>;
  /** Tags whose drop has not reached the shared store yet, each with when it was first tried. */
  readonly pending: ReadonlyMap<string, number>;
}

/** One minute of retries: Redis back within it sees every drop; past it, the pages expire by their own maxAge. */
export const DROP_GIVE_UP_MS = 60_000;

/**
 * A revalidation must reach every replica: a drop that fails while Redis cannot answer (frozen,
 * down) is tried again, rather than leaving the old page in Redis for its whole `maxAge`, for a
 * bounded time: a drop still failing after `giveUpMs` is given up, logged and counted by `onGiveUp`.
 * Each try is one command bounded by REDIS_TIMEOUT_MS (redis-page-store.ts).
 */
export function retriedDrops(shared: { dropTag(tag: string): Promise<void> }, options: RetriedDropsOptions = {}): RetriedDrops {
  const { retryMs = 1_000, giveUpMs = DROP_GIVE_UP_MS, onError, onGiveUp } = options;
  const pending = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (pending.size === 0 || timer) return;
    timer = setTimeout(() => void retry(), retryMs);
    timer.unref();
  };
  const giveUp = (tag: string, error: unknown) => {
    pending.delete(tag);
    onGiveUp?.(tag, error);
  };
  const retry = async () => {
    for (const tag of [...pending.keys()]) {
      if (!pending.has(tag)) continue;
      try {
        await shared.dropTag(tag);
        pending.delete(tag);
      } catch (error) {
        // Redis still cannot answer: the drops past their time are given up, the rest wait for the next round.
        const now = Date.now();
        for (const [waiting, first] of [...pending]) if (now - first >= giveUpMs) giveUp(waiting, error);
        break;
      }
    }
    timer = undefined;
    schedule();
  };
  return {
    pending,
    async drop(tag) {
      try {
        await shared.dropTag(tag);
        pending.delete(tag);
      } catch (error) {
        if (pending.size === 0) onError?.(error);
        if (pending.size >= MAX_PENDING && !pending.has(tag)) {
          const [oldest] = pending.keys();
          if (oldest !== undefined) giveUp(oldest, error);
        }
        // The same tag dropped again while waiting keeps its first time: the give-up bounds the whole wait.
        if (!pending.has(tag)) pending.set(tag, Date.now());
        schedule();
      }
    },
  };
}
