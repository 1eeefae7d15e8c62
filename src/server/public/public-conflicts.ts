import { pagePathOf } from "../../shared/routing/data-request";
import type { RouteTable } from "../../shared/routing/route-table";

export interface PlatformPaths {
  /** Where the Sentry tunnel is mounted (`SENTRY_TUNNEL_PATH`). */
  tunnelPath: string;
  /** Whether the diagnostics routes are mounted, so their paths count. */
  diagnostics: boolean;
}

const ASSET_PREFIX = "/assets/";
const PROBES = new Set(["/healthz", "/readyz"]);

/** What answers `url` ahead of the public folder, or null when nothing does. */
function platformPathFor(url: string, { tunnelPath }: PlatformPaths): string | null {
  if (url.startsWith(ASSET_PREFIX)) return `the hashed assets under ${ASSET_PREFIX}`;
  if (PROBES.has(url)) return `the health probe ${url}`;
  if (url.startsWith(tunnelPath)) return `the Sentry tunnel at ${tunnelPath} (SENTRY_TUNNEL_PATH)`;
  return null;
}

export interface PublicFileConflicts {
  /** A file that is dead, breaks navigation or hides a page of fixed path: the build and start refuse it. */
  errors: string[];
  /**
   * A file at one of the URLs a route with parameters answers (`/:lang` and `/robots.txt`): the
   * route still answers every other value, so this is said, not refused.
   */
  warnings: string[];
}

/**
 * Public files that would hide, or be hidden by, something else at the same URL: a route of the
 * table (a splat route is a catch-all, which files are meant to take precedence over), the data
 * endpoint client navigation uses, the hashed assets, the health probes or the tunnel. One line
 * each, naming both.
 */
export function publicFileConflicts(urls: Iterable<string>, table: RouteTable, paths: PlatformPaths): PublicFileConflicts {
  const found: PublicFileConflicts = { errors: [], warnings: [] };
  for (const url of urls) {
    const platform = platformPathFor(url, paths);
    if (platform) {
      found.errors.push(`public file ${url} can never be served: ${platform} answers that URL`);
      continue;
    }
    if (pagePathOf(url) !== null) {
      found.errors.push(`public file ${url} would break client navigation: ${url} is the data endpoint's (/__data)`);
      continue;
    }
    const matched = table.match(url, { diagnostics: paths.diagnostics });
    if (!matched || matched.pattern.includes("*")) continue;
    const leaf = matched.matches[matched.matches.length - 1]?.id;
    const line = `public file ${url} would hide the route ${matched.pattern} (${leaf})`;
    if (matched.pattern.includes("/:")) found.warnings.push(`${line} at that one URL`);
    else found.errors.push(line);
  }
  return found;
}
