import type { Context } from "koa";
import type { PageCachePolicy } from "../../shared/routing/module";
import { checkCacheTag } from "../routing/revalidation";
import type { RouteMatch } from "../../shared/routing/route-table";
import { safeDecode, splitPath } from "../../shared/routing/match";
import { requestOrigin } from "../http/request-target";
import { type ParsedSearch, parsedSearch } from "../routing/search-params";
import type { ClassifiedRequest } from "../request/core/classify";

/** Where one request's answer is kept, and under which tags. */
export interface CachePlan {
  kind: "document" | "data";
  key: string;
  tags: string[];
  policy: PageCachePolicy;
}

/** A page whose `cache.tags` function threw or gave a bad tag: it renders uncached, and the route is named. */
export type BadCacheTags = (ctx: Context, route: string, error: unknown) => void;

/** Whether the router reads `path` as another one (`/x/`, `//x`, `/x//y` are `/x`, `/x/y`): cheap, no allocation. */
export function isCanonicalPath(path: string): boolean {
  return !path.includes("//") && (path.length === 1 || !path.endsWith("/"));
}

/** The one spelling of a page path the router matches alike: no empty segments, no trailing slash. */
export function canonicalPath(path: string): string {
  return isCanonicalPath(path) ? path : `/${splitPath(path).join("/")}`;
}

/** Characters a path segment holds as they are, decoded or not: such a path is its own tag. */
const PLAIN_PATH = /^[\w.~/-]*$/;

/** A segment as a param reaches the page (decoded; one that cannot be is taken as it is), escaped one way: `%61` and `a`, `%c3%a9` and `é` are one. */
function segmentSpelling(segment: string): string {
  return encodeURIComponent(safeDecode(segment) ?? segment);
}

/** One spelling of every path the router matches alike (slashes, escapes): what a page path is known by. */
export function pathSpelling(path: string): string {
  const canonical = canonicalPath(path);
  return PLAIN_PATH.test(canonical) ? canonical : `/${splitPath(canonical).map(segmentSpelling).join("/")}`;
}

/**
 * The tag every answer of one page path carries, whatever its spelling (slashes, escapes), so
 * revalidatePath is a revalidateTag, given the path escaped or as a param makes it (`/x/${slug}`).
 */
export function pathTag(path: string): string {
  return `path:${pathSpelling(path)}`;
}

/** The page's declared tags, checked; throws what is wrong with them. `search` is the parsed query, or without a schema the whole query, sorted. */
function declaredTags(policy: PageCachePolicy, leaf: RouteMatch, search: ParsedSearch | undefined, querystring: string): readonly string[] {
  if (typeof policy.tags !== "function") return policy.tags ?? [];
  const tags: unknown = policy.tags({ params: leaf.params, search: search?.ok ? search.value : sortedQuery(querystring) });
  if (!Array.isArray(tags)) throw new TypeError(`cache.tags must return a list of tags, not ${typeof tags}`);
  for (const tag of tags) checkCacheTag(tag);
  return tags as string[];
}

/** The whole query, sorted: what a page without a schema is known by. */
function sortedQuery(querystring: string): string {
  const query = new URLSearchParams(querystring);
  query.sort();
  return query.toString();
}

/**
 * The cache key and tags of a page read (a plan `fromStorage`) for a page that declares `cache`;
 * undefined for a page without it, for a query its schema refuses (the page answers that itself), and for tags
 * its `cache.tags` could not give (`onBadTags` is told). The key holds everything the render
 * reads of the request but its headers: the origin (a page may read `url.origin`), the path and
 * the raw query exactly as the page sees them; a data request's key also names the routes it asked for.
 */
export function cachePlan(ctx: Context, request: ClassifiedRequest, build: string, onBadTags?: BadCacheTags): CachePlan | undefined {
  // Asked only for a page read (a plan `fromStorage`): a GET or HEAD of a document or a data answer.
  if (!request.matched) return undefined;
  if (request.format === "data" && !request.requested?.ok) return undefined;
  const { server } = request.route;
  const policy = server?.cache;
  if (!policy) return undefined;
  const { matches } = request.matched;
  const leaf = matches[matches.length - 1] as RouteMatch;
  const { querystring } = ctx;
  const schema = server.searchParams;
  const search = schema && parsedSearch(request, schema, leaf.id, new URLSearchParams(querystring));
  // A query the schema refuses: the page answers it (the 400) itself, uncached.
  if (search && !search.ok) return undefined;
  let tags: readonly string[];
  try {
    tags = declaredTags(policy, leaf, search, querystring);
  } catch (error) {
    onBadTags?.(ctx, request.matched.pattern, error);
    return undefined;
  }
  // Every route (`*`) is not none (`=`, a client whose routes all kept their data): one key would answer one with the other.
  const only = request.requested?.ok ? request.requested.only : undefined;
  const requested = request.format !== "data" ? "" : only ? `=${[...only].sort().join(",")}` : "*";
  // The build first, then `|` (the Redis store scopes its bookkeeping by it); the rest joined by
  // line feeds, which no request target holds, so no path or query can pass for another's.
  const key = `${build}|${request.format}\n${requestOrigin(ctx) ?? ""}\n${request.pagePath}\n${querystring}\n${requested}`;
  // A page read is a document or a data answer, never a resource route's.
  return { kind: request.format as CachePlan["kind"], key, tags: [...tags, pathTag(request.pagePath)], policy };
}
