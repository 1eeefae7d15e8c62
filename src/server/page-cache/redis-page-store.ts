import type { RedisConnection } from "../redis/redis-connection";
import type { CacheEntry } from "./page-store";
import { pageScripts } from "./redis-page-scripts";

/** What a read found, and Redis' clock when it read (µs): a render that follows it passes it to `set`. */
export interface SharedRead {
  entry: CacheEntry | undefined;
  readAt: number;
}

/** The store every replica shares (see redis-page-scripts.ts for its keys). */
export interface SharedPageStore {
  get(key: string): Promise<SharedRead>;
  /** Keeps a render that began after the read at `readAt`; false when Redis refused it (a drop came since, or it is too large). */
  set(key: string, entry: CacheEntry, readAt: number): Promise<boolean>;
  /** Drops every entry carrying `tag` for every replica (at once), then deletes them in batches in the background. */
  dropTag(tag: string): Promise<void>;
}

export interface RedisPageStoreOptions {
  /** PAGE_CACHE_REDIS_MAX_MB, in bytes: what one build's kept pages may hold in Redis. */
  maxBytes: number;
}

/** A render read longer ago than this is not kept in Redis: a drop is remembered that long at least. */
export const RENDER_WINDOW_MS = 5 * 60_000;
/** Entries deleted per command of a drop: each command stays short however many the tag has. */
const DROP_BATCH = 200;

/**
 * The store every replica shares. A drop is one command that records the tag's drop time, so
 * every replica stops serving its entries at once, and no render that read before it is ever
 * stored; the entries themselves are then deleted a batch per command. Each build's entries are
 * held within `maxBytes`, least recently used evicted first. Each command is bounded by
 * REDIS_TIMEOUT_MS; a failure rejects, and the page cache goes on without Redis.
 */
export function redisPageStore(redis: RedisConnection, { maxBytes }: RedisPageStoreOptions): SharedPageStore {
  const scripts = pageScripts(redis.client);
  /** The rest of a drop's deletions: entries left meanwhile are refused on read, and expire or are evicted. */
  const deleteRest = async (tag: string, remaining: number) => {
    for (let batches = 0; remaining > 0 && batches < 10_000; batches++) {
      remaining = await scripts.outpostPageDrop(tag, DROP_BATCH, RENDER_WINDOW_MS, "0").catch(() => 0);
    }
  };
  return {
    get: async (key) => {
      const [text, readAt] = await scripts.outpostPageRead(key);
      const entry = text === null ? undefined : (JSON.parse(text) as CacheEntry);
      return { entry: entry && entry.staleUntil > Date.now() ? entry : undefined, readAt };
    },
    set: async (key, entry, readAt) => {
      const ttl = Math.max(1, Math.ceil(entry.staleUntil - Date.now()));
      const reply = await scripts.outpostPageWrite(key, JSON.stringify(entry), ttl, readAt, maxBytes, RENDER_WINDOW_MS * 1000, ...entry.tags);
      return reply === "stored";
    },
    dropTag: async (tag) => {
      const remaining = await scripts.outpostPageDrop(tag, DROP_BATCH, RENDER_WINDOW_MS, "1");
      if (remaining > 0) void deleteRest(tag, remaining);
    },
  };
}
