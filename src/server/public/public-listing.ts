import { lstatSync, readdirSync, realpathSync } from "node:fs";
import path from "node:path";

/** The one dotted folder a site needs to serve (RFC 8615: security.txt, ACME challenges, app links). */
const WELL_KNOWN = ".well-known";

/** The public folder as served: its real path, and each file's URL path with its path under that folder. */
export interface PublicListing {
  root: string;
  /** URL path (`/robots.txt`, `/100%.txt`: decoded, as a request names it once decoded) to relative path. */
  files: Map<string, string>;
}

/**
 * Every file under `root` that may be served. Left out: symbolic links and anything else that is
 * no plain file, and dotfiles and dot-folders (`.env`, `.git/`) but a top-level `.well-known/`,
 * since a deploy often copies more into the folder than was meant for visitors.
 */
export function listPublicFiles(root: string | undefined): PublicListing {
  if (!root) return { root: "", files: new Map() };
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return { root: "", files: new Map() };
  }
  const files = new Map<string, string>();
  const visit = (dir: string, depth: number) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith(".") && !(depth === 0 && entry.name === WELL_KNOWN)) continue;
      const absolute = path.join(dir, entry.name);
      // lstat: a link pointing out of the folder (or anywhere) is never followed.
      const stats = lstatSync(absolute);
      if (stats.isDirectory()) visit(absolute, depth + 1);
      else if (stats.isFile()) {
        const relative = path.relative(realRoot, absolute).split(path.sep).join("/");
        files.set(`/${relative}`, relative);
      }
    }
  };
  visit(realRoot, 0);
  return { root: realRoot, files };
}

/** Whether the public folder has this file (a plain one, as served). */
export function publicFileExists(root: string | undefined, name: string): boolean {
  try {
    return root !== undefined && lstatSync(path.join(root, name)).isFile();
  } catch {
    return false;
  }
}
