// SSR context row: the floor's render as the one middleware of a bare Koa app. The gap from the
// floor is what Koa itself costs per page; the gap from here to ours is our middleware and page
// handler (routing, loaders, security headers, request log and metrics).
import { createServer } from "node:http";
import Koa from "koa";
import { renderPage, serve } from "./lib/floor-render.mjs";

const app = new Koa();
app.use((ctx) => {
  // Streamed past Koa's response handling, as the server's page handler does.
  ctx.respond = false;
  return renderPage(ctx.res);
});
serve(createServer(app.callback()));
