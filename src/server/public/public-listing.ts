import { lstatSync, readdirSync } from "node:fs";
import path from "node:path";

/** The one dotted folder a site must serve (security.txt, ACME challenges, app links). */
const WELL_KNOWN = ".well-known";

/**
 * Every servable file under `root`, as its URL path mapped to its path relative to `root`.
 * Left out: symbolic links and anything else that is no plain file (lstat: a link pointing out of
 * the folder is never followed), and dot-names (`.env`, `.git/`) but the top-level `.well-known/`,
 * as koa-static and serve-static leave dotfiles out.
 */
export function listPublicFiles(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (dir: string, top: boolean) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith(".") && !(top && entry.name === WELL_KNOWN)) continue;
      const absolute = path.join(dir, entry.name);
      const stats = lstatSync(absolute);
      if (stats.isDirectory()) visit(absolute, false);
      else if (stats.isFile()) {
        const relative = path.relative(root, absolute).split(path.sep).join("/");
        files.set(`/${relative}`, relative);
      }
    }
  };
  visit(root, true);
  return files;
}
