// Tunnel floor on the fixed stack: the bare relay's forwarding as a Koa app's only route, on
// @koa/router. No checks, no headers, no metrics: what Koa and the router alone add per envelope.
import Router from "@koa/router";
import Koa from "koa";
import { Agent, request } from "undici";

const upstream = `${process.env.INGEST_ORIGIN}/api/42/envelope/`;
const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
const router = new Router();
// Whichever undici sends for less, as the tunnel chooses: a small envelope sent with its headers
// is buffered whole one microtask later and goes as a buffer; anything else streams.
async function bodyOf(req) {
  await undefined;
  return req.complete ? (req.read() ?? Buffer.alloc(0)) : req;
}

router.post("/monitoring", async (ctx) => {
  const { req } = ctx;
  const body = await bodyOf(req);
  const answer = await request(upstream, {
    method: "POST",
    headers: {
      "content-type": req.headers["content-type"] ?? "application/x-sentry-envelope",
      ...(req.headers["content-length"] ? { "content-length": req.headers["content-length"] } : {}),
    },
    body,
    dispatcher,
  });
  ctx.status = answer.statusCode;
  ctx.type = answer.headers["content-type"] ?? "application/json";
  // Read whole, as the tunnel does with the ingest's short answers.
  ctx.body = Buffer.from(await answer.body.arrayBuffer());
});
const app = new Koa();
app.use(router.routes());
const server = app.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ port: server.address().port })));
server.keepAliveTimeout = 65_000;
process.once("SIGTERM", () => process.exit(0));
