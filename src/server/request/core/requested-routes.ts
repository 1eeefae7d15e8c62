import type { Context } from "koa";
import { ROUTES_PARAM } from "../../../shared/routing/requested-routes";
import type { AppRoutes } from "../../routing/app-routes";

export type RequestedRoutes = { ok: true; only: ReadonlySet<string> | undefined } | { ok: false; error: string };

/**
 * The routes a data request names in `_routes`, taken out of the query so that loaders see the
 * page's own search. Undefined `only` means every route; an unknown id is the client's mistake.
 */
export function takeRequestedRoutes(ctx: Context, routes: AppRoutes): RequestedRoutes {
  if (!ctx.querystring.includes(ROUTES_PARAM)) return { ok: true, only: undefined };
  const query = new URLSearchParams(ctx.querystring);
  const values = query.getAll(ROUTES_PARAM);
  if (values.length === 0) return { ok: true, only: undefined };
  query.delete(ROUTES_PARAM);
  ctx.querystring = query.toString();
  if (values.length > 1) return { ok: false, error: `${ROUTES_PARAM} must be given once` };
  const ids = (values[0] as string).split(",").filter((id) => id !== "");
  for (const id of ids) {
    if (!routes.has(id)) return { ok: false, error: `${ROUTES_PARAM} names an unknown route: ${JSON.stringify(id.slice(0, 100))}` };
  }
  return { ok: true, only: new Set(ids) };
}
