import { createReadStream } from "node:fs";
import path from "node:path";
import type { Context, Middleware } from "koa";
import { setRouteLabel } from "../http/request-log";
import { streamResponse } from "../http/stream-response";
import type { StaticFile } from "./manifest";

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
};

/**
 * Serves only files the build manifest lists, so no request path ever reaches the file
 * system: traversal is impossible and source maps (not listed) stay private. Names carry
 * a content hash, hence the year-long immutable caching.
 */
export function staticAssets(files: Map<string, StaticFile>, prefix = "/assets/"): Middleware {
  // Not async: most requests are no asset and pass straight on, without a promise of our own.
  return (ctx, next) => {
    if (!ctx.path.startsWith(prefix)) return next();
    serveAsset(ctx, files);
  };
}

function serveAsset(ctx: Context, files: Map<string, StaticFile>): void {
  setRouteLabel(ctx.state, "static");
  if (ctx.method !== "GET" && ctx.method !== "HEAD") {
    ctx.set("Allow", "GET, HEAD");
    ctx.status = 405;
    return;
  }
  const file = files.get(ctx.path);
  if (!file) {
    ctx.status = 404;
    ctx.type = "text/plain";
    ctx.body = "Not found";
    return;
  }
  ctx.status = 200;
  ctx.set("Cache-Control", "public, max-age=31536000, immutable");
  ctx.type = CONTENT_TYPES[path.extname(file.absolutePath)] ?? "application/octet-stream";
  ctx.length = file.size;
  // Koa answers HEAD with the headers alone, so only GET opens the file.
  if (ctx.method === "GET") streamResponse(ctx, createReadStream(file.absolutePath));
}
