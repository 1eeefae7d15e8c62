import { createReadStream } from "node:fs";
import type { Context, Middleware } from "koa";
import { setRouteLabel } from "../http/route-label";
import { streamResponse } from "../http/stream-response";
import { isReadMethod } from "../http/methods";
import { answerAssetMissing, contentHashOf, setAssetHeaders } from "./asset-headers";
import type { StaticFile } from "./manifest";

/** Where an asset request was answered from: this build's files, another build's (Redis), or nowhere (404). */
export type AssetResult = "local" | "shared" | "missing";

/** Another live build's assets, shared through Redis (shared-asset-lookup.ts). */
export interface SharedAssets {
  /** The bytes of a hashed asset another build published, or undefined (unknown, or Redis unreachable). */
  lookup(urlPath: string): Promise<Buffer | undefined>;
}

/** Where the build's hashed assets are served. */
export const STATIC_ASSETS_PREFIX = "/assets/";

export interface StaticAssetsOptions {
  prefix?: string;
  /** Consulted for a hashed asset this build lacks; absent without REDIS_URL. */
  shared?: SharedAssets;
  observe?: (result: AssetResult) => void;
}

/**
 * Serves only files the build manifest lists, so no request path ever reaches the file
 * system: traversal is impossible and source maps (not listed) stay private. Names carry
 * a content hash, hence the year-long immutable caching.
 */
export function staticAssets(files: Map<string, StaticFile>, { prefix = STATIC_ASSETS_PREFIX, shared, observe }: StaticAssetsOptions = {}): Middleware {
  // Not async: most requests are no asset and pass straight on, without a promise of our own.
  return (ctx, next) => {
    if (!ctx.path.startsWith(prefix)) return next();
    setRouteLabel(ctx.state, "static");
    if (!isReadMethod(ctx.method)) {
      ctx.set("Allow", "GET, HEAD");
      ctx.status = 405;
      return;
    }
    const file = files.get(ctx.path);
    if (file) {
      observe?.("local");
      serveLocal(ctx, file);
      return;
    }
    // Only a content-hashed name may come from another build: an unhashed one could differ between builds.
    if (!shared || contentHashOf(ctx.path) === undefined) {
      observe?.("missing");
      answerAssetMissing(ctx);
      return;
    }
    return serveShared(ctx, shared, observe);
  };
}

function serveLocal(ctx: Context, file: StaticFile): void {
  setAssetHeaders(ctx, ctx.path, file.size);
  if (notModified(ctx)) return;
  // Koa answers HEAD with the headers alone, so only GET opens the file.
  if (ctx.method === "GET") streamResponse(ctx, createReadStream(file.absolutePath));
}

async function serveShared(ctx: Context, shared: SharedAssets, observe: StaticAssetsOptions["observe"]): Promise<void> {
  const bytes = await shared.lookup(ctx.path);
  if (!bytes) {
    observe?.("missing");
    answerAssetMissing(ctx);
    return;
  }
  observe?.("shared");
  setAssetHeaders(ctx, ctx.path, bytes.length);
  if (notModified(ctx)) return;
  // Koa sends the headers alone for HEAD.
  ctx.body = bytes;
}

/** A conditional request whose ETag still matches: 304, headers but no body. */
function notModified(ctx: Context): boolean {
  if (!ctx.fresh) return false;
  ctx.status = 304;
  return true;
}
