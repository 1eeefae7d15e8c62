import type { Context } from "koa";

/**
 * The visitor closed the connection before the exchange was over: during its upload (Node's
 * parser then reports the cut body, a reader of the body gets "aborted") or while the answer was
 * being sent (a write gets ECONNRESET or EPIPE, a piped stream "Premature close"). Koa passes
 * each on as an app error, though nothing went wrong on our side: one rule for every answer.
 * undici may have detached the request from its socket (it does so for a body it relayed), so
 * the response's socket is asked too.
 */
export function clientLeft(ctx: Context): boolean {
  const socket = ctx.req.socket ?? ctx.res.socket;
  if (socket?.destroyed !== true) return false;
  return !ctx.req.complete || !ctx.res.writableFinished;
}
