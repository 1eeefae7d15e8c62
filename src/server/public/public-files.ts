import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import path from "node:path";
import type { Context, Middleware } from "koa";
import { safeDecode } from "../../shared/routing/match";
import { setRouteLabel } from "../http/request-log";
import { streamResponse } from "../http/stream-response";
import type { PublicListing } from "./public-listing";

/** A day: these files keep their names (no content hash), so a change must reach visitors soon. */
const CACHE_CONTROL = "max-age=86400";

// Refuses a link swapped in for a listed file after start (where the platform has the flag).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

/**
 * The app's public folder at the site's root (`/robots.txt`, `/favicon.ico`, `/.well-known/…`).
 * Only the files listed at start are served, so no request path reaches the file system by
 * itself: `..`, encoded separators, NUL, dotfiles and directories are simply not in the list
 * (the page handler answers 404). The path is percent-decoded once, here, and never again.
 */
export function publicFiles({ root, files }: PublicListing): Middleware {
  // Not async: pages, the usual request, pass on with one lookup.
  return (ctx, next) => {
    if (files.size === 0 || (ctx.method !== "GET" && ctx.method !== "HEAD")) return next();
    const wanted = ctx.path.includes("%") ? safeDecode(ctx.path) : ctx.path;
    const file = wanted === null ? undefined : files.get(wanted);
    if (!file) return next();
    setRouteLabel(ctx.state, "public");
    return servePublicFile(ctx, path.join(root, file), next);
  };
}

/**
 * One file with its type, length, validators and a day's caching; 304 when the visitor's copy is
 * current. The body streams through the platform's response helper, so a visitor leaving
 * mid-file is a closed response, never an error. A file gone since start is the not-found page.
 */
async function servePublicFile(ctx: Context, absolute: string, next: () => Promise<unknown>): Promise<unknown> {
  let handle: FileHandle;
  try {
    handle = await open(absolute, OPEN_FLAGS);
  } catch {
    return next();
  }
  let streaming = false;
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return next();
    ctx.status = 200;
    ctx.type = path.extname(absolute);
    ctx.length = stats.size;
    ctx.lastModified = stats.mtime;
    ctx.set("Cache-Control", CACHE_CONTROL);
    ctx.etag = `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    // Koa answers HEAD with the headers alone.
    if (ctx.method !== "GET") return;
    streaming = true;
    streamResponse(ctx, handle.createReadStream({ autoClose: true }));
  } finally {
    if (!streaming) await handle.close();
  }
}
