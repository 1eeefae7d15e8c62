import type { ServerResponse } from "node:http";
import type { Context, Middleware } from "koa";
import { jsonText } from "../../shared/json/json-text";
import type { FixedAnswer } from "./fixed-answers";
import { sendJson } from "./json-body";
import { isReadMethod } from "./methods";
import { setRouteLabel } from "./route-label";
import { SECURITY_HEADERS } from "./security-headers";

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

/** One probe answer as healthChecks writes it after the security headers: the header block and the body, made once. */
interface ProbeAnswer {
  status: number;
  headers: string[];
  body: string;
}

function probeAnswer(status: number, word: string): ProbeAnswer {
  const body = jsonText({ status: word }, "the answer");
  const headers = [...SECURITY_HEADERS, "Cache-Control", "no-store", "Content-Type", "application/json; charset=utf-8", "Content-Length", String(Buffer.byteLength(body))];
  return { status, headers, body };
}

/**
 * healthChecks' answers written before Koa, with the request log's record (`track`): for a GET or
 * HEAD of exactly `/healthz` or `/readyz`; any other spelling (a query) goes through Koa.
 */
export function fixedHealthAnswers(readiness: Readiness, track: (res: ServerResponse, route: string) => void): FixedAnswer {
  const live = probeAnswer(200, "ok");
  const ready = probeAnswer(200, "ready");
  const draining = probeAnswer(503, "draining");
  return (req, res) => {
    const { url, method } = req;
    if (url !== "/healthz" && url !== "/readyz") return false;
    if (method !== "GET" && method !== "HEAD") return false;
    const probe = url === "/healthz" ? live : readiness.ready ? ready : draining;
    track(res, url);
    res.writeHead(probe.status, probe.headers);
    if (method === "HEAD") res.end();
    else res.end(probe.body);
    return true;
  };
}
