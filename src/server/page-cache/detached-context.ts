import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import type { Context } from "koa";
import { carryRequestTarget } from "../http/request-target";

/** Request headers a background render must not see: they are the visitor's, not the page's. */
const PERSONAL = ["cookie", "authorization", "if-none-match", "if-modified-since"];

/**
 * A context for a background render of the same request as `ctx`, as the page saw it: its URL
 * (path and query, a data request's `_routes` already taken out), its origin as checked by the
 * requestTarget middleware, its headers but the visitor's own. Its own request and response,
 * never sent anywhere, so the page's writers run as for a visitor and the answer is read back from it.
 */
export function detachedContext(ctx: Context): Context {
  const req = new IncomingMessage(new Socket());
  req.method = "GET";
  req.url = ctx.url;
  req.headers = { ...ctx.req.headers };
  for (const name of PERSONAL) delete req.headers[name];
  const detached = ctx.app.createContext(req, new ServerResponse(req));
  carryRequestTarget(ctx, detached);
  return detached;
}
