import { LRUCache } from "lru-cache";
import type { StoredAnswer } from "./stored-page";

/** One kept answer and how long it may be served: fresh until `freshUntil`, stale (refreshing) until `staleUntil` (ms since the epoch). */
export interface CacheEntry {
  stored: StoredAnswer;
  freshUntil: number;
  staleUntil: number;
  tags: string[];
}

/** Where answers are kept: this process's memory, or Redis shared by every replica. */
export interface PageStore {
  get(key: string): Promise<CacheEntry | undefined>;
  set(key: string, entry: CacheEntry): Promise<void>;
  /** Drops every entry carrying `tag`. */
  dropTag(tag: string): Promise<void>;
}

/** The size an entry is counted at against the budget, in bytes: its body (text and bytes) and headers. */
export function entryBytes(entry: CacheEntry): number {
  // The text as V8 may hold it (two bytes a character at worst) and its UTF-8 copy made for writing (stored-page.ts).
  const { body } = entry.stored;
  return 2 * body.length + Buffer.byteLength(body) + JSON.stringify(entry.stored.headers).length + 256;
}

/** The in-process store: least recently used entries go first once `maxBytes` is reached; a tag index finds what to drop. */
export function localPageStore(maxBytes: number): PageStore {
  const byTag = new Map<string, Set<string>>();
  const unindex = (key: string, entry: CacheEntry) => {
    for (const tag of entry.tags) {
      const keys = byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) byTag.delete(tag);
    }
  };
  const entries = new LRUCache<string, CacheEntry>({
    maxSize: maxBytes,
    sizeCalculation: entryBytes,
    ttlAutopurge: false,
    dispose: (entry, key) => unindex(key, entry),
  });
  return {
    get: async (key) => {
      const entry = entries.get(key);
      if (entry && entry.staleUntil <= Date.now()) {
        entries.delete(key);
        return undefined;
      }
      return entry;
    },
    set: async (key, entry) => {
      entries.set(key, entry);
      // Too large for the whole budget: not kept, and not indexed.
      if (!entries.has(key)) return;
      for (const tag of entry.tags) {
        const keys = byTag.get(tag) ?? new Set<string>();
        keys.add(key);
        byTag.set(tag, keys);
      }
    },
    dropTag: async (tag) => {
      for (const key of [...(byTag.get(tag) ?? [])]) entries.delete(key);
      byTag.delete(tag);
    },
  };
}
