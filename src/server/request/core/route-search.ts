import type { MatchedRoutes, RouteMatch } from "../../../shared/routing/route-table";
import { parseSearch } from "../../routing/search-params";
import type { AppRoutes } from "../../routing/app-routes";
import type { ClassifiedRequest } from "./classify";
import type { EarlyFailure } from "./outcome";
import type { PageRequestContext } from "./request-context";

/**
 * Parses the query by the page's `searchParams` schema into `context.search`, once, before its
 * middleware, loaders or action (taken as parsed when the cache plan parsed it). A refused query
 * (a 400 signal) or a broken schema stops the chain at the page, as a middleware's failure there
 * would; pages without a schema pay a lookup.
 */
export function readSearch(routes: AppRoutes, chain: MatchedRoutes, context: PageRequestContext, request: ClassifiedRequest): EarlyFailure | undefined {
  const depth = chain.matches.length - 1;
  const { id } = chain.matches[depth] as RouteMatch;
  const schema = routes.serverHalf(id)?.searchParams;
  if (!schema) return undefined;
  const parsed = chain === request.matched ? request.search : undefined;
  if (parsed) {
    if (!parsed.ok) return { depth, error: parsed.error };
    context.search = parsed.value;
    return undefined;
  }
  try {
    context.search = parseSearch(schema, context.url.searchParams, id);
  } catch (error) {
    return { depth, error };
  }
  return undefined;
}
