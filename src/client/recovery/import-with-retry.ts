/**
 * A chunk that still failed to load after its retries: a deploy removed it from every replica
 * that answered, or the network is down. Its `cause` is the browser's last error.
 */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super(`a script chunk failed to load: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "ChunkLoadError";
  }
}

/** Two retries, soon enough that a visitor barely waits (docs/decisions/0068-pages-recover-from-missing-scripts.md). */
export const CHUNK_RETRY_DELAYS_MS: readonly number[] = [250, 750];

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `importer()` again after each delay while it fails to fetch (a TypeError in every browser):
 * behind a balancer the next request may reach a replica that has the chunk, and browsers
 * fetch a failed module again rather than keep the failure. Other errors (the module threw)
 * are not retried.
 */
export async function importWithRetry<T>(importer: () => Promise<T>, delaysMs: readonly number[] = CHUNK_RETRY_DELAYS_MS): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await importer();
    } catch (error) {
      const delay = delaysMs[attempt];
      if (!(error instanceof TypeError)) throw error;
      if (delay === undefined) throw new ChunkLoadError(error);
      await wait(delay);
    }
  }
}
