import { pagePathOf } from "../../shared/routing/data-request";
import { parsePattern } from "../../shared/routing/match";
import type { RouteTable } from "../../shared/routing/route-table";

/** Paths the platform answers in front of the public files, and the ones it answers behind them. */
export interface PlatformPaths {
  /** The Sentry tunnel's path, when the tunnel is on: every path starting with it is the tunnel's. */
  tunnelPath?: string;
  /** Where the build's hashed assets are served (every path under it is theirs). */
  assetPrefix: string;
}

export interface PublicFileClashes {
  /** A file and a path of the platform or a page that cannot both be served: start and build stop. */
  errors: string[];
  /** A file that takes one path of a route with parameters: the route keeps every other path. */
  warnings: string[];
}

const PROBES = new Set(["/healthz", "/readyz"]);

/**
 * Which public files clash with something else at their path. The platform's own paths come
 * first (the file is never served); the data endpoint and the pages come after (the file hides
 * them). A static route is an error; a route with parameters (`/:lang` would match robots.txt) a
 * warning, since it still answers all its other paths; a catch-all (`*`) exists to take what
 * nothing else does, so it clashes with nothing.
 */
export function publicFileClashes(files: Iterable<string>, table: RouteTable, paths: PlatformPaths): PublicFileClashes {
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const file of files) {
    const platform = platformPathOf(file, paths);
    if (platform) {
      errors.push(`public file ${file} is never served: ${platform} answers that path`);
      continue;
    }
    if (pagePathOf(file) !== null) {
      errors.push(`public file ${file} hides the data endpoint /__data (client navigation fetches its path)`);
      continue;
    }
    const matched = table.match(file, { diagnostics: true });
    if (!matched) continue;
    const segments = parsePattern(matched.pattern);
    if (segments.some((segment) => segment.kind === "rest")) continue;
    if (segments.every((segment) => segment.kind === "static")) errors.push(`public file ${file} hides the route ${matched.pattern}`);
    else warnings.push(`public file ${file} hides the route ${matched.pattern} at that one path`);
  }
  return { errors, warnings };
}

function platformPathOf(file: string, { tunnelPath, assetPrefix }: PlatformPaths): string | undefined {
  if (PROBES.has(file)) return `the health probe ${file}`;
  // The same test as the tunnel's mount (a plain prefix).
  if (tunnelPath && file.startsWith(tunnelPath)) return `the Sentry tunnel (SENTRY_TUNNEL_PATH=${tunnelPath})`;
  if (file.startsWith(assetPrefix)) return `the build's assets under ${assetPrefix}`;
  return undefined;
}

/** Throws one error naming every clash; hands each warning to `warn`. */
export function checkPublicFiles(files: Iterable<string>, table: RouteTable, paths: PlatformPaths, warn: (message: string) => void): void {
  const { errors, warnings } = publicFileClashes(files, table, paths);
  for (const warning of warnings) warn(warning);
  if (errors.length > 0) throw new Error(`the public folder clashes with the app's paths:\n  ${errors.join("\n  ")}`);
}
