import type { Context } from "koa";
import { canonicalPath } from "../page-cache/cache-plan";

/**
 * Answers a read of a kept or prerendered page under another spelling of its path (`/x/`, `//x`,
 * `/x//y`) with a 308 to the one the router matches alike, query kept: one URL, one entry.
 */
export function redirectToCanonical(ctx: Context, pagePath: string): void {
  // A backslash escaped: browsers read a Location starting "/\" as another host's.
  const location = canonicalPath(pagePath).replaceAll("\\", "%5C") + ctx.search;
  ctx.body = null;
  ctx.status = 308;
  // Said outright so that HEAD carries it too (Koa adds it only to a GET's empty body).
  ctx.length = 0;
  ctx.set("Location", location);
}
