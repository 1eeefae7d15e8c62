import Router from "@koa/router";
import { setRouteLabel } from "./request-log";

export interface Readiness {
  ready: boolean;
}

/** Liveness answers while the process runs; readiness turns 503 once draining starts. */
export function healthRouter(readiness: Readiness): Router {
  const router = new Router();
  router.get("/healthz", (ctx) => {
    setRouteLabel(ctx.state, "/healthz");
    ctx.set("Cache-Control", "no-store");
    ctx.body = { status: "ok" };
  });
  router.get("/readyz", (ctx) => {
    setRouteLabel(ctx.state, "/readyz");
    ctx.set("Cache-Control", "no-store");
    ctx.status = readiness.ready ? 200 : 503;
    ctx.body = { status: readiness.ready ? "ready" : "draining" };
  });
  return router;
}
