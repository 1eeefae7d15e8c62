import type { Context } from "koa";
import type { PageCachePolicy } from "../../shared/routing/module";
import { checkCacheTag } from "../routing/revalidation";
import type { RouteMatch } from "../../shared/routing/route-table";
import { parseSearch } from "../routing/search-params";
import type { ClassifiedRequest } from "../request/core/classify";
import type { AppRoutes } from "../routing/app-routes";

/** Where one request's answer is kept, and under which tags. */
export interface CachePlan {
  kind: "document" | "data";
  key: string;
  tags: string[];
  policy: PageCachePolicy;
}

/** The tag every answer of one page path carries, so revalidatePath is a revalidateTag. */
export function pathTag(path: string): string {
  return `path:${path}`;
}

/** The leaf page's cache declaration, if any. */
export function cachePolicyOf(routes: AppRoutes, matches: readonly RouteMatch[]): PageCachePolicy | undefined {
  const leaf = matches[matches.length - 1];
  return leaf ? routes.serverHalf(leaf.id)?.cache : undefined;
}

/** `Cache-Control` for a declared page, so a CDN in front keeps it as long as the server does. */
export function declaredCacheControl({ maxAge, staleWhileRevalidate = 0 }: PageCachePolicy): string {
  return `public, s-maxage=${maxAge}, stale-while-revalidate=${staleWhileRevalidate}`;
}

/**
 * The cache key and tags of a GET or HEAD for a page that declares `cache`; undefined for any
 * other request, and for a query its schema refuses (the page answers that itself). The query
 * counts as its schema parses it (so `?b=1&a=2` and `?a=2&b=1` are one entry), or whole when
 * the page has none; a data request's key also names the routes it asked for.
 */
export function cachePlan(ctx: Context, request: ClassifiedRequest, routes: AppRoutes, build: string): CachePlan | undefined {
  // A read the switch let through is a GET or a HEAD (anything else was refused 405).
  if (request.op !== "read" || request.format === "resource" || !request.matched) return undefined;
  if (request.format === "data" && !request.requested?.ok) return undefined;
  const { matches } = request.matched;
  const policy = cachePolicyOf(routes, matches);
  if (!policy) return undefined;
  const leaf = matches[matches.length - 1] as RouteMatch;
  const schema = routes.serverHalf(leaf.id)?.searchParams;
  const query = new URLSearchParams(ctx.querystring);
  let search: unknown;
  if (schema) {
    try {
      search = parseSearch(schema, query, leaf.id);
    } catch {
      return undefined;
    }
  } else {
    query.sort();
    search = query.toString();
  }
  const requested = request.format === "data" && request.requested?.ok && request.requested.only ? [...request.requested.only].sort().join(",") : "";
  const key = `${build}|${request.format}|${request.pagePath}|${JSON.stringify(search) ?? ""}|${requested}`;
  const declared = typeof policy.tags === "function" ? policy.tags({ params: leaf.params, search }) : (policy.tags ?? []);
  for (const tag of declared) checkCacheTag(tag);
  return { kind: request.format, key, tags: [...declared, pathTag(request.pagePath)], policy };
}
