import type { Context } from "koa";
import type { PageCacheService } from "../routing/revalidation";
import type { RedisConnection } from "../redis/redis-connection";
import type { CachePlan } from "./cache-plan";
import { pathTag } from "./cache-plan";
import { type CacheEntry, localPageStore } from "./page-store";
import { RENDER_WINDOW_MS, redisPageStore } from "./redis-page-store";
import { retriedDrops } from "./retried-drops";
import { captureStored, writeStored } from "./stored-page";

export type PageCacheResult = "hit" | "stale" | "miss" | "bypass";

/** PAGE_CACHE_REDIS_MAX_MB's default, in bytes. */
const DEFAULT_REDIS_MAX_BYTES = 64 * 1024 * 1024;

/** The `Cache-Status` of each answer (RFC 9211), so a hit is visible from outside. */
export const CACHE_STATUS = {
  hit: "outpost; hit",
  stale: "outpost; fwd=stale",
  miss: "outpost; fwd=miss; stored",
  bypass: "outpost; fwd=bypass",
} as const satisfies Record<PageCacheResult, string>;

/** Keys whose background refresh was tried most: past it, the oldest backoffs are forgotten (a flood of failing keys). */
const MAX_FAILED_REFRESHES = 10_000;

/** Renders the request's answer onto `ctx` with the usual writers; resolves whether it may be kept (nobody personal). */
export type RenderOnto = (ctx: Context) => Promise<boolean>;

/**
 * What the cache's lookup did: wrote a kept answer (a stale one with the background refresh it
 * wants, by a render the page handler owns), or left the request to the handler's render, whose
 * outcome `keep` takes (kept for later requests and written as they get it, or marked a bypass).
 */
export type CacheLookup = { kind: "answered"; refresh?: (render: RenderOnto) => void } | { kind: "render"; keep: (rendering: Promise<boolean>) => Promise<void> };

const ANSWERED: CacheLookup = { kind: "answered" };

export interface PageCacheOptions {
  /** PAGE_CACHE_MAX_MB, in bytes: the in-process store's budget. */
  maxBytes: number;
  /** With REDIS_URL: entries shared by every replica while it answers. */
  redis?: RedisConnection;
  /** PAGE_CACHE_REDIS_MAX_MB, in bytes: what this build's kept pages may hold in Redis. */
  redisMaxBytes?: number;
  /** A drop that could not reach Redis within a minute of retries (the other replicas keep the pages until they expire). */
  onDropGivenUp?: (tag: string, error: unknown) => void;
  observe?: (result: PageCacheResult) => void;
  /** A background refresh that failed (the stale answer stays until it expires). */
  onError?: (error: unknown) => void;
  /** A context like `ctx` for a background render nobody waits on. */
  detachedContext: (ctx: Context) => Context;
}

export interface PageCache extends PageCacheService {
  /** A lookup answered without awaiting (a fresh entry in memory) is no promise. */
  lookUp(ctx: Context, plan: CachePlan): CacheLookup | Promise<CacheLookup>;
  /** What this process holds: the bytes its memory store counts, and per-key state that empties once no render runs. */
  bookkeeping(): { keptBytes: number; keptKeys: number; inflight: number; refreshing: number; refreshFailed: number; droppedTags: number };
}

/**
 * The server's page cache: fresh entries are answered, stale ones answered while one background
 * render refreshes them, and concurrent misses for one key wait for one render. Redis while it is
 * up (shared), this process's memory otherwise: a Redis failure is a miss, never an error.
 */
export function createPageCache(options: PageCacheOptions): PageCache {
  const local = localPageStore(options.maxBytes);
  const shared = options.redis ? redisPageStore(options.redis, { maxBytes: options.redisMaxBytes ?? DEFAULT_REDIS_MAX_BYTES }) : undefined;
  /** Renders in progress per key, with when each began and its tags: a drop since makes it no answer for later requests. */
  const inflight = new Map<string, { rendering: Promise<CacheEntry | undefined>; started: number; tags: readonly string[] }>();
  const refreshing = new Set<string>();
  /** Keys whose last background refresh could not be kept, until when none is tried again: its error was reported once. */
  const refreshFailed = new Map<string, number>();
  /** When each tag was last dropped here: a render that began before must not store what it saw. */
  const droppedAt = new Map<string, number>();
  const observe = options.observe ?? (() => {});

  /** Whether one of `tags` was dropped here at or after `since` (ms): what was read or rendered before is out of date. */
  const droppedAfter = (tags: readonly string[], since: number) => tags.some((tag) => (droppedAt.get(tag) ?? 0) >= since);
  /** Kept before one of its tags was dropped here: stale, even while Redis has not yet been told. */
  const droppedSince = (entry: CacheEntry) => entry.tags.some((tag) => (droppedAt.get(tag) ?? 0) > entry.stored.storedAt);
  /** Redis' clock when each entry found there was read: a refresh of it is kept only if no drop came since. */
  const readAts = new WeakMap<CacheEntry, number>();
  /** Redis while it answers (with its clock at the read: see `write`), this process's memory otherwise. */
  const read = async (key: string): Promise<{ entry: CacheEntry | undefined; readAt?: number }> => {
    if (shared && options.redis?.up) {
      const found = await shared.get(key).catch(() => undefined);
      if (found) {
        if (found.entry) readAts.set(found.entry, found.readAt);
        return { entry: found.entry && !droppedSince(found.entry) ? found.entry : undefined, readAt: found.readAt };
      }
    }
    const entry = await local.get(key);
    return { entry: entry && !droppedSince(entry) ? entry : undefined };
  };
  const sharedDrops = shared && retriedDrops(shared, { onError: options.onError, onGiveUp: options.onDropGivenUp });
  /**
   * Keeps a render in Redis only when it followed a read there (Redis refuses it if one of its
   * tags was dropped since, on any replica); in memory when Redis could not be asked or failed.
   */
  const write = async (key: string, entry: CacheEntry, readAt: number | undefined) => {
    if (!shared || !options.redis?.up || readAt === undefined) return local.set(key, entry);
    await shared.set(key, entry, readAt).catch(() => local.set(key, entry));
  };

  /**
   * Puts the visitor's validator aside for a render about to run on `ctx` (rendered whole for the
   * store, never answered 304 there); the step returned takes that render's outcome and starts
   * keeping the answer when it may be kept (`stored` settles once the store has it, or has failed
   * and memory has it), undefined when it may not.
   */
  const beginKeep = (ctx: Context, plan: CachePlan, readAt: number | undefined) => {
    const started = Date.now();
    const validator = ctx.req.headers["if-none-match"];
    delete ctx.req.headers["if-none-match"];
    return async (rendering: Promise<boolean>): Promise<{ entry: CacheEntry; stored: Promise<unknown> } | undefined> => {
      let keepable: boolean;
      try {
        keepable = await rendering;
      } finally {
        if (validator !== undefined) ctx.req.headers["if-none-match"] = validator;
      }
      if (!keepable) return undefined;
      const stored = captureStored(ctx, plan.kind);
      if (!stored) return undefined;
      const { maxAge, staleWhileRevalidate = 0 } = plan.policy;
      const entry: CacheEntry = { stored, freshUntil: started + maxAge * 1000, staleUntil: started + (maxAge + staleWhileRevalidate) * 1000, tags: plan.tags };
      return { entry, stored: droppedAfter(plan.tags, started) ? Promise.resolve() : write(plan.key, entry, readAt) };
    };
  };

  /** One background render of a stale entry per key, on a detached context, by the handler's `render`. */
  const refresh = (ctx: Context, plan: CachePlan, render: RenderOnto, entry: CacheEntry) => {
    if (refreshing.has(plan.key) || (refreshFailed.get(plan.key) ?? 0) > Date.now()) return;
    refreshing.add(plan.key);
    // A refresh that fails (its render error already reported) is not tried again for the rest of the stale window.
    const failed = () => {
      if (refreshFailed.size >= MAX_FAILED_REFRESHES) refreshFailed.clear();
      refreshFailed.set(plan.key, entry.staleUntil);
    };
    const detached = options.detachedContext(ctx);
    beginKeep(detached, plan, readAts.get(entry))(render(detached))
      .then((kept) => {
        if (!kept) return failed();
        refreshFailed.delete(plan.key);
        return kept.stored;
      })
      .catch((error: unknown) => {
        failed();
        options.onError?.(error);
      })
      .finally(() => refreshing.delete(plan.key));
  };

  const answerFrom = (ctx: Context, entry: CacheEntry) => {
    const now = Date.now();
    const result = entry.freshUntil > now ? "hit" : "stale";
    writeStored(ctx, entry.stored, String(Math.max(0, Math.floor((now - entry.stored.storedAt) / 1000))), CACHE_STATUS[result]);
    return result;
  };

  /** Writes a kept entry; a stale one comes with the refresh it wants. */
  const answered = (ctx: Context, plan: CachePlan, entry: CacheEntry): CacheLookup => {
    const result = answerFrom(ctx, entry);
    observe(result);
    return result === "hit" ? ANSWERED : { kind: "answered", refresh: (render) => refresh(ctx, plan, render, entry) };
  };

  /** Renders for this visitor only (not kept): answered as usual, said so in `Cache-Status` while its headers are unsent. */
  const bypassed = (ctx: Context) => {
    observe("bypass");
    if (!ctx.res.headersSent) ctx.res.setHeader("Cache-Status", CACHE_STATUS.bypass);
  };

  /**
   * A fresh entry this process's memory holds for a key no render is in flight for, while Redis
   * is not the store: answered at once, as the lookup below would after its awaits, without them.
   */
  const lookUp = (ctx: Context, plan: CachePlan): CacheLookup | Promise<CacheLookup> => {
    if (inflight.has(plan.key) || (shared && options.redis?.up)) return lookUpAwaiting(ctx, plan);
    const found = local.peek(plan.key);
    if (!found || found.freshUntil <= Date.now() || droppedSince(found)) return lookUpAwaiting(ctx, plan);
    // It may have turned stale since the line above, by a millisecond.
    return answered(ctx, plan, found);
  };

  const lookUpAwaiting = async (ctx: Context, plan: CachePlan): Promise<CacheLookup> => {
    const pending = inflight.get(plan.key);
    // A render that began before a drop of its tags is no answer for a request made after it (an action's own redirect).
    if (pending && !droppedAfter(pending.tags, pending.started)) {
      const entry = await pending.rendering;
      if (entry) {
        observe(answerFrom(ctx, entry));
        return ANSWERED;
      }
      return { kind: "render", keep: (rendering) => rendering.then(() => bypassed(ctx)) };
    }
    let finishRendering: (entry: CacheEntry | undefined) => void = () => {};
    const rendering = { rendering: new Promise<CacheEntry | undefined>((resolve) => (finishRendering = resolve)), started: Date.now(), tags: plan.tags };
    inflight.set(plan.key, rendering);
    // The visitor is not kept waiting for the store (a stalled Redis would add its timeout): until
    // the store has the entry, later requests for the key are answered from this render.
    const settle = (kept: CacheEntry | undefined, stored: Promise<unknown>) => {
      finishRendering(kept);
      void stored
        .catch((error: unknown) => options.onError?.(error))
        .finally(() => {
          if (inflight.get(plan.key) === rendering) inflight.delete(plan.key);
        });
    };
    let lookedUp: Awaited<ReturnType<typeof read>>;
    try {
      lookedUp = await read(plan.key);
    } catch (error) {
      settle(undefined, Promise.resolve());
      throw error;
    }
    const found = lookedUp.entry;
    if (found) {
      try {
        return answered(ctx, plan, found);
      } finally {
        settle(found, Promise.resolve());
      }
    }
    const keepRender = beginKeep(ctx, plan, lookedUp.readAt);
    return {
      kind: "render",
      keep: async (rendered) => {
        let kept: CacheEntry | undefined;
        let stored: Promise<unknown> = Promise.resolve();
        try {
          const keeping = await keepRender(rendered);
          if (!keeping) return bypassed(ctx);
          ({ entry: kept, stored } = keeping);
          observe("miss");
          // Written again as every later visitor gets it: its own nonce, the stored ETag.
          writeStored(ctx, kept.stored, "0", CACHE_STATUS.miss);
        } finally {
          settle(kept, stored);
        }
      },
    };
  };

  /** Only renders in progress and drops not yet in Redis need a drop remembered: a long-running process forgets the rest. */
  const forgetOldDrops = () => {
    if (droppedAt.size < 1_000) return;
    const before = Date.now() - RENDER_WINDOW_MS;
    for (const [tag, at] of droppedAt) if (at < before && !sharedDrops?.pending.has(tag)) droppedAt.delete(tag);
  };

  const dropTag = async (tag: string) => {
    forgetOldDrops();
    droppedAt.set(tag, Date.now());
    await local.dropTag(tag);
    await sharedDrops?.drop(tag);
  };

  const bookkeeping = () => ({
    keptBytes: local.keptBytes,
    keptKeys: local.keys,
    inflight: inflight.size,
    refreshing: refreshing.size,
    refreshFailed: refreshFailed.size,
    droppedTags: droppedAt.size,
  });

  return { lookUp, bookkeeping, revalidateTag: dropTag, revalidatePath: (path) => dropTag(pathTag(path)) };
}
