import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import type { Context } from "koa";

/** Request headers a background render must not see: they are the visitor's, not the page's. */
const PERSONAL = ["cookie", "authorization", "if-none-match", "if-modified-since"];

/**
 * A context for a background render of the same URL as `ctx`: its own request and response,
 * never sent anywhere, so the page's writers run as for a visitor and the answer is read back from it.
 */
export function detachedContext(ctx: Context): Context {
  const req = new IncomingMessage(new Socket());
  req.method = "GET";
  req.url = ctx.originalUrl;
  req.headers = { ...ctx.req.headers };
  for (const name of PERSONAL) delete req.headers[name];
  return ctx.app.createContext(req, new ServerResponse(req));
}
