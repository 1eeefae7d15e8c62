import type { Context } from "koa";

/**
 * The visitor's connection closed before its request body was all in (a tab closed during an
 * upload). Node's parser then reports the cut body on the socket, and a reader of the body gets
 * "aborted"; Koa passes either on as an app error, though nothing went wrong on our side.
 * undici may have detached the request from its socket (it does so for a body it relayed), so
 * the response's socket is asked too.
 */
export function clientLeftMidRequest(ctx: Context): boolean {
  const socket = ctx.req.socket ?? ctx.res.socket;
  return !ctx.req.complete && socket?.destroyed === true;
}
