import type { RedisConnection } from "../redis/redis-connection";
import type { CacheEntry, PageStore } from "./page-store";

const ENTRY_PREFIX = "outpost:page:";
const TAG_PREFIX = "outpost:page-tag:";

/**
 * The store every replica shares: each entry a JSON string expiring when it is no longer
 * servable, each tag a set of the entries' keys, so dropping a tag on one replica removes the
 * entries for all of them at once. Each command is bounded by REDIS_TIMEOUT_MS; a failure
 * rejects, and the page cache goes on without Redis.
 */
export function redisPageStore(redis: RedisConnection): PageStore {
  const { client } = redis;
  return {
    get: async (key) => {
      const text = await client.get(ENTRY_PREFIX + key);
      if (text === null) return undefined;
      const entry = JSON.parse(text) as CacheEntry;
      return entry.staleUntil > Date.now() ? entry : undefined;
    },
    set: async (key, entry) => {
      const ttl = Math.max(1, Math.ceil(entry.staleUntil - Date.now()));
      const batch = client.multi().set(ENTRY_PREFIX + key, JSON.stringify(entry), "PX", ttl);
      for (const tag of entry.tags) {
        // The index lives as long as its longest-lived entry.
        batch.sadd(TAG_PREFIX + tag, key).pexpire(TAG_PREFIX + tag, ttl, "NX").pexpire(TAG_PREFIX + tag, ttl, "GT");
      }
      await batch.exec();
    },
    dropTag: async (tag) => {
      const keys = await client.smembers(TAG_PREFIX + tag);
      await client.del(TAG_PREFIX + tag, ...keys.map((key) => ENTRY_PREFIX + key));
    },
  };
}
