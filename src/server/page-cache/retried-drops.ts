import type { PageStore } from "./page-store";

/** How often drops that failed are tried again. */
const RETRY_MS = 1_000;
/** Tags waiting at most: past it, the oldest is given up (a long outage with many distinct tags). */
const MAX_PENDING = 10_000;

export interface RetriedDrops {
  /** Drops `tag` in the shared store; when it cannot now, tries again every second until it can. */
  drop(tag: string): Promise<void>;
  /** Tags whose drop has not reached the shared store yet. */
  readonly pending: ReadonlySet<string>;
}

/**
 * A revalidation must reach every replica: a drop that fails while Redis cannot answer (frozen,
 * down) is tried again until it succeeds, rather than leaving the old page in Redis for its whole
 * `maxAge`. The first failure of an outage is reported; the retries are quiet. Dropping a tag
 * again later also removes what was kept since: one more render, never a stale page.
 */
export function retriedDrops(shared: PageStore, onError?: (error: unknown) => void): RetriedDrops {
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (pending.size === 0 || timer) return;
    timer = setTimeout(() => void retry(), RETRY_MS);
    timer.unref();
  };
  const retry = async () => {
    for (const tag of [...pending]) {
      try {
        await shared.dropTag(tag);
        pending.delete(tag);
      } catch {
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
        if (pending.size >= MAX_PENDING) pending.delete(pending.values().next().value as string);
        pending.add(tag);
        schedule();
      }
    },
  };
}
