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

/** Renders the request's answer onto `ctx` with the usual writers; resolves whether it may be kept (nobody personal). */
export type RenderOnto = (ctx: Context) => Promise<boolean>;

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
  serve(ctx: Context, plan: CachePlan, render: RenderOnto): Promise<void>;
}

/**
 * The server's page cache: fresh entries are answered, stale ones answered while one background
 * render refreshes them, and concurrent misses for one key wait for one render. Redis while it is
 * up (shared), this process's memory otherwise: a Redis failure is a miss, never an error.
 */
export function createPageCache(options: PageCacheOptions): PageCache {
  const local = localPageStore(options.maxBytes);
  const shared = options.redis ? redisPageStore(options.redis, { maxBytes: options.redisMaxBytes ?? DEFAULT_REDIS_MAX_BYTES }) : undefined;
  const inflight = new Map<string, Promise<CacheEntry | undefined>>();
  const refreshing = new Set<string>();
  /** When each tag was last dropped here: a render that began before must not store what it saw. */
  const droppedAt = new Map<string, number>();
  const observe = options.observe ?? (() => {});

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
   * Renders onto `ctx` and starts keeping the answer when it may be kept (`stored` settles once
   * the store has it, or has failed and memory has it); undefined when it may not.
   */
  const renderAndKeep = async (ctx: Context, plan: CachePlan, render: RenderOnto, readAt: number | undefined): Promise<{ entry: CacheEntry; stored: Promise<unknown> } | undefined> => {
    const started = Date.now();
    // Rendered whole for the store, never answered 304 here: the visitor's validator is checked when it is written.
    const validator = ctx.req.headers["if-none-match"];
    delete ctx.req.headers["if-none-match"];
    const keepable = await render(ctx);
    if (validator !== undefined) ctx.req.headers["if-none-match"] = validator;
    if (!keepable) return undefined;
    const stored = captureStored(ctx, plan.kind);
    if (!stored) return undefined;
    const { maxAge, staleWhileRevalidate = 0 } = plan.policy;
    const entry: CacheEntry = { stored, freshUntil: started + maxAge * 1000, staleUntil: started + (maxAge + staleWhileRevalidate) * 1000, tags: plan.tags };
    const dropped = plan.tags.some((tag) => (droppedAt.get(tag) ?? 0) >= started);
    return { entry, stored: dropped ? Promise.resolve() : write(plan.key, entry, readAt) };
  };

  const refresh = (ctx: Context, plan: CachePlan, render: RenderOnto) => {
    if (refreshing.has(plan.key)) return;
    refreshing.add(plan.key);
    renderAndKeep(options.detachedContext(ctx), plan, render, readAts.get(entry))
      .then((kept) => kept?.stored)
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => refreshing.delete(plan.key));
  };

  const answerFrom = (ctx: Context, entry: CacheEntry) => {
    const now = Date.now();
    writeStored(ctx, entry.stored, { Age: String(Math.max(0, Math.floor((now - entry.stored.storedAt) / 1000))) });
    return entry.freshUntil > now ? "hit" : "stale";
  };

  const serve = async (ctx: Context, plan: CachePlan, render: RenderOnto): Promise<void> => {
    const pending = inflight.get(plan.key);
    if (pending) {
      const entry = await pending;
      if (entry) return observe(answerFrom(ctx, entry));
      observe("bypass");
      await render(ctx);
      return;
    }
    let settle: (entry: CacheEntry | undefined) => void = () => {};
    const rendering = new Promise<CacheEntry | undefined>((resolve) => (settle = resolve));
    inflight.set(plan.key, rendering);
    let kept: CacheEntry | undefined;
    // The visitor is not kept waiting for the store (a stalled Redis would add its timeout): until
    // the store has the entry, later requests for the key are answered from this render.
    let stored: Promise<unknown> = Promise.resolve();
    try {
      const { entry: found, readAt } = await read(plan.key);
      if (found) {
        kept = found;
        const result = answerFrom(ctx, found);
        if (result === "stale") refresh(ctx, plan, render);
        return observe(result);
      }
      const rendered = await renderAndKeep(ctx, plan, render, readAt);
      if (!rendered) return observe("bypass");
      ({ entry: kept, stored } = rendered);
      observe("miss");
      // Written again as every later visitor gets it: its own nonce, the stored ETag.
      writeStored(ctx, kept.stored, { Age: "0" });
    } finally {
      settle(kept);
      void stored
        .catch((error: unknown) => options.onError?.(error))
        .finally(() => {
          if (inflight.get(plan.key) === rendering) inflight.delete(plan.key);
        });
    }
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

  return { serve, revalidateTag: dropTag, revalidatePath: (path) => dropTag(pathTag(path)) };
}
