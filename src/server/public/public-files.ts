import { lstatSync, realpathSync } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import type { Context, Middleware } from "koa";
import { safeDecode } from "../../shared/routing/match";
import type { RouteTable } from "../../shared/routing/route-table";
import { setRouteLabel } from "../http/route-label";
import { streamResponse } from "../http/stream-response";
import { isReadMethod } from "../http/methods";
import { type PlatformPaths, publicFileConflicts } from "./public-conflicts";
import { listPublicFiles } from "./public-listing";

/** A day: these files keep their names (no content hash), so a change must reach visitors soon. */
const MAX_AGE_SECONDS = 24 * 60 * 60;

/** Whether the public folder has this file (a plain one, as served). */
export function publicFileExists(root: string | undefined, name: string): boolean {
  try {
    return root !== undefined && lstatSync(path.join(root, name)).isFile();
  } catch {
    return false;
  }
}

export interface PublicFilesOptions extends PlatformPaths {
  table: RouteTable;
  /** Hears of a file that hides one value of a route with parameters (said at start, not refused). */
  warn: (message: string) => void;
}

/**
 * The URL path as a file's name, each segment decoded once (`/100%25.txt` is `100%.txt`); a bad
 * escape or an encoded slash names no file, so one file has one URL.
 */
function fileNameOf(urlPath: string): string | null {
  if (!urlPath.includes("%")) return urlPath;
  const segments = urlPath.split("/");
  for (let i = 0; i < segments.length; i++) {
    const decoded = safeDecode(segments[i] as string);
    if (decoded === null || decoded.includes("/")) return null;
    segments[i] = decoded;
  }
  return segments.join("/");
}

/**
 * The app's public folder at the site's root (`/robots.txt`, `/favicon.ico`, `/.well-known/…`).
 * Only the files listed at start are served, so no request path reaches the file system by
 * itself: `..`, encoded separators, NUL, dotfiles and directories are simply not in the list (the
 * page handler answers 404). A file that would hide a route or a platform path stops start-up.
 */
export function publicFiles(root: string | undefined, options: PublicFilesOptions): Middleware {
  let realRoot = "";
  let files = new Map<string, string>();
  try {
    realRoot = root ? realpathSync(root) : "";
    if (root) files = listPublicFiles(realRoot);
  } catch {}
  const { errors, warnings } = publicFileConflicts(files.keys(), options.table, options);
  if (errors.length > 0) throw new Error(`the app's public folder (${root}) clashes:\n  ${errors.join("\n  ")}`);
  for (const warning of warnings) options.warn(warning);
  // Not async: pages, the usual request, pass on with one lookup.
  return (ctx, next) => {
    if (files.size === 0 || !isReadMethod(ctx.method)) return next();
    // Decoded once: `/100%25.txt` is the file `100%.txt`; a bad escape names no file.
    const wanted = fileNameOf(ctx.path);
    const file = wanted === null ? undefined : files.get(wanted);
    if (!file) return next();
    return servePublicFile(ctx, path.join(realRoot, file), next);
  };
}

async function servePublicFile(ctx: Context, absolute: string, next: () => Promise<unknown>): Promise<unknown> {
  // Opened before any header: a file removed since start is the not-found page, never an error's text.
  const handle = await open(absolute).catch(() => null);
  if (!handle) return next();
  let stats: Awaited<ReturnType<typeof handle.stat>>;
  try {
    stats = await handle.stat();
  } catch {
    await handle.close();
    return next();
  }
  setRouteLabel(ctx.state, "public");
  ctx.status = 200;
  ctx.type = path.extname(absolute) || "application/octet-stream";
  ctx.set("Cache-Control", `max-age=${MAX_AGE_SECONDS}`);
  ctx.set("Last-Modified", stats.mtime.toUTCString());
  ctx.set("ETag", `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`);
  if (ctx.fresh) {
    await handle.close();
    ctx.status = 304;
    return;
  }
  ctx.length = stats.size;
  // Through the platform's own writer: a client that leaves mid-file is no error.
  streamResponse(ctx, handle.createReadStream());
}
