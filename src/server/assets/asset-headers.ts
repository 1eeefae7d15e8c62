import path from "node:path";
import type { Context } from "koa";

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".ttf": "font/ttf",
  ".otf": "font/otf",
  ".eot": "application/vnd.ms-fontobject",
};

/**
 * A script, stylesheet, font or image name as the client build writes it, `[name]-[hash].ext`
 * with esbuild's 8-character content hash, under /assets/, /assets/chunks/, /assets/styles/ or
 * /assets/media/ (what stylesheets name with `url()`). Nothing else is ever looked up in Redis: no
 * unhashed name, no encoded or doubled separator, nothing longer than a build writes.
 */
const HASHED_ASSET =
  /^\/assets\/(?:chunks\/|styles\/|media\/)?[A-Za-z0-9_$.-]{1,120}-([A-Z0-9]{8})\.(?:js|css|woff2?|ttf|otf|eot|png|jpe?g|gif|svg|webp|avif|ico)$/;

/** The content hash in a hashed asset's URL path, or undefined when the path is not one. */
export function contentHashOf(urlPath: string): string | undefined {
  return HASHED_ASSET.exec(urlPath)?.[1];
}

/**
 * The headers of an asset answer, the same whether the bytes are this build's or another's
 * (shared through Redis). The ETag is the content hash in the name: the name changes whenever
 * the content does, which the year-long immutable caching relies on already.
 */
export function setAssetHeaders(ctx: Context, urlPath: string, size: number): void {
  ctx.status = 200;
  ctx.set("Cache-Control", "public, max-age=31536000, immutable");
  ctx.type = CONTENT_TYPES[path.extname(urlPath)] ?? "application/octet-stream";
  ctx.length = size;
  const hash = contentHashOf(urlPath);
  if (hash) ctx.set("ETag", `"${hash}"`);
}

/** A miss is never stored: the asset may be published a moment later (another build starting). */
export function answerAssetMissing(ctx: Context): void {
  ctx.status = 404;
  ctx.set("Cache-Control", "no-store");
  ctx.type = "text/plain";
  ctx.body = "Not found";
}
