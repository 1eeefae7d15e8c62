import { LRUCache } from "lru-cache";
import { type StoredAnswer, TEXT_WRITE_MAX } from "./stored-page";

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

/**
 * The objects around an entry's strings and bytes: the entry, its answer and headers object, the
 * LRU's node, its tag set members, its key as V8 built it (joined pieces of the request's URL),
 * its text's pieces around the nonces (stored-page.ts). Measured: ~1.8 KB with 370 characters of
 * names (flood-memory.test.tsx holds it).
 */
const ENTRY_OVERHEAD = 1_536;
/** A character past Latin-1: V8 then holds the whole text two bytes a character. */
const TWO_BYTE = /[\u0100-\uffff]/;

/**
 * The bytes an entry keeps in this process, counted against the budget: its text as V8 holds
 * it; for a body past TEXT_WRITE_MAX, its UTF-8 bytes too (twice for a document: stored-page.ts
 * keeps one copy free to take the next nonce); its key, tags and headers (two bytes a character
 * at worst), and the objects around them.
 */
export function entryBytes(entry: CacheEntry, key = ""): number {
  const { body, headers, kind } = entry.stored;
  const text = body.length * (TWO_BYTE.test(body) ? 2 : 1);
  const bytes = body.length <= TEXT_WRITE_MAX ? 0 : Buffer.byteLength(body) * (kind === "document" ? 2 : 1);
  let names = key.length;
  for (const tag of entry.tags) names += tag.length;
  for (const [name, value] of Object.entries(headers)) names += name.length + value.length + 32;
  return text + bytes + 2 * names + 8 * (entry.stored.nonceSlots?.length ?? 0) + ENTRY_OVERHEAD;
}

/** The in-process store, with the bytes it counts as kept (never above its budget). */
export interface LocalPageStore extends PageStore {
  /** get() at once, without a promise: memory needs no wait. */
  peek(key: string): CacheEntry | undefined;
  readonly keptBytes: number;
  readonly keys: number;
}

/** The in-process store: least recently used entries go first once `maxBytes` is reached; a tag index finds what to drop. */
export function localPageStore(maxBytes: number): LocalPageStore {
  const byTag = new Map<string, Set<string>>();
  const unindex = (key: string, entry: CacheEntry) => {
    for (const tag of entry.tags) {
      const keys = byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) byTag.delete(tag);
    }
  };
  const entries = new LRUCache<string, CacheEntry>({
    // PAGE_CACHE_MAX_MB may be a fraction: lru-cache takes whole bytes.
    maxSize: Math.max(1, Math.floor(maxBytes)),
    sizeCalculation: (entry, key) => entryBytes(entry, key),
    ttlAutopurge: false,
    dispose: (entry, key) => unindex(key, entry),
  });
  const peek = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.staleUntil <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    get keptBytes() {
      return entries.calculatedSize;
    },
    get keys() {
      return entries.size;
    },
    peek,
    get: async (key) => peek(key),
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
