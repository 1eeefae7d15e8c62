import type { Stats } from "node:fs";
import { lstatSync, readdirSync, realpathSync } from "node:fs";
import type { ServerResponse } from "node:http";
import path from "node:path";
import type { Middleware } from "koa";
import send from "koa-send";
import { safeDecode } from "../../shared/routing/match";
import { setRouteLabel } from "../http/request-log";

/** A day: these files keep their names (no content hash), so a change must reach visitors soon. */
const MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** Every file under `root` as its URL path; symbolic links and anything else that is no plain file are left out. */
function listFiles(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const absolute = path.join(dir, entry.name);
      // lstat: a link pointing out of the folder (or anywhere) is never followed.
      const stats = lstatSync(absolute);
      if (stats.isDirectory()) visit(absolute);
      else if (stats.isFile()) {
        const relative = path.relative(root, absolute).split(path.sep).join("/");
        files.set(`/${relative}`, relative);
      }
    }
  };
  visit(root);
  return files;
}

/** Whether the public folder has this file (a plain one, as served). */
export function publicFileExists(root: string | undefined, name: string): boolean {
  try {
    return root !== undefined && lstatSync(path.join(root, name)).isFile();
  } catch {
    return false;
  }
}

const setHeaders = (res: ServerResponse, _path: string, stats: Stats) => {
  res.setHeader("ETag", `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`);
};

/**
 * The app's public folder at the site's root (`/robots.txt`, `/favicon.ico`, `/.well-known/…`).
 * Only the files listed at start are served, so no request path reaches the file system by
 * itself: `..`, encoded separators, NUL and directories are simply not in the list (the page
 * handler answers 404). koa-send serves each with its type, Last-Modified and a day's caching.
 */
export function publicFiles(root: string | undefined): Middleware {
  let files: Map<string, string>;
  let realRoot: string;
  try {
    realRoot = root ? realpathSync(root) : "";
    files = root ? listFiles(realRoot) : new Map();
  } catch {
    files = new Map();
    realRoot = "";
  }
  // Not async: pages, the usual request, pass on with one lookup.
  return (ctx, next) => {
    if (files.size === 0 || (ctx.method !== "GET" && ctx.method !== "HEAD")) return next();
    const wanted = ctx.path.includes("%") ? safeDecode(ctx.path) : ctx.path;
    const file = wanted === null ? undefined : files.get(wanted);
    if (!file) return next();
    setRouteLabel(ctx.state, "public");
    return send(ctx, file, { root: realRoot, hidden: true, maxage: MAX_AGE_MS, setHeaders }).then(() => {
      if (!ctx.fresh) return;
      (ctx.body as { destroy?: () => void } | null)?.destroy?.();
      ctx.status = 304;
      ctx.body = null;
    });
  };
}
