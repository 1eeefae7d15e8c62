import type { Context, Middleware } from "koa";
import { sendJson } from "./json-body";
import { isReadMethod } from "./methods";
import { setRouteLabel } from "./route-label";

export interface Readiness {
  ready: boolean;
}

/**
 * Liveness answers while the process runs; readiness turns 503 once draining starts.
 * Two fixed paths, so a plain comparison rather than a router: this runs in front of every page.
 */
export function healthChecks(readiness: Readiness): Middleware {
  return (ctx, next) => {
    const { path } = ctx;
    if ((path !== "/healthz" && path !== "/readyz") || !isReadMethod(ctx.method)) return next();
    if (path === "/healthz") answer(ctx, path, 200, "ok");
    else answer(ctx, path, readiness.ready ? 200 : 503, readiness.ready ? "ready" : "draining");
  };
}

function answer(ctx: Context, path: string, status: number, word: string): void {
  setRouteLabel(ctx.state, path);
  ctx.set("Cache-Control", "no-store");
  ctx.status = status;
  sendJson(ctx, { status: word });
}
