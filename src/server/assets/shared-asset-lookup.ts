import { LRUCache } from "lru-cache";
import type { RedisConnection } from "../redis/redis-connection";
import { sharedAssetKey } from "./shared-asset-key";
import type { SharedAssets } from "./static-assets";

/** Bytes of other builds' assets kept in this process: a deploy's worth of scripts and styles for the old pages still open. */
export const SHARED_ASSET_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * Another build's assets from Redis, each fetched once and then kept in a cache bounded in bytes
 * (the bytes never change: the name is their hash). Concurrent requests for one path share one
 * GET. While Redis is down or slow the answer is "unknown" at once or within twice REDIS_TIMEOUT_MS,
 * which the caller turns into a 404: never a hang, never an error page.
 */
export function sharedAssetLookup(redis: RedisConnection, maxBytes = SHARED_ASSET_CACHE_BYTES): SharedAssets {
  const cache = new LRUCache<string, Buffer>({ maxSize: maxBytes, sizeCalculation: (bytes) => Math.max(1, bytes.length) });
  const pending = new Map<string, Promise<Buffer | undefined>>();
  const get = (urlPath: string) => redis.client.getBuffer(sharedAssetKey(urlPath));
  const fetchFromRedis = async (urlPath: string): Promise<Buffer | undefined> => {
    try {
      // A 404 here is a page that cannot hydrate: one late answer (a Redis pausing to fork, this
      // process in a GC pause) is worth a second try, while Redis still counts as up.
      const bytes = await get(urlPath).catch((error: unknown) => {
        if (!redis.up) throw error;
        return get(urlPath);
      });
      // Larger than the whole cache: served, not kept (lru-cache would refuse it anyway).
      if (bytes && bytes.length <= maxBytes) cache.set(urlPath, bytes);
      return bytes ?? undefined;
    } catch {
      return undefined;
    }
  };
  return {
    lookup(urlPath) {
      const cached = cache.get(urlPath);
      if (cached) return Promise.resolve(cached);
      if (!redis.up) return Promise.resolve(undefined);
      let fetching = pending.get(urlPath);
      if (!fetching) {
        fetching = fetchFromRedis(urlPath).finally(() => pending.delete(urlPath));
        pending.set(urlPath, fetching);
      }
      return fetching;
    },
  };
}
