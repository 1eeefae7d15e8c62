import type { ServerResponse } from "node:http";
import type { Readable } from "node:stream";
import type { Context } from "koa";

/**
 * Hands the response to `pipeTo` rather than to Koa. Koa's pipeline turns a visitor leaving
 * mid-stream into an app "error", which error reporting would count as one; here it only
 * calls `onClientGone`. Status and headers must be set on ctx first.
 */
export function pipeResponse(ctx: Context, pipeTo: (res: ServerResponse) => void, onClientGone: () => void): void {
  ctx.respond = false;
  const { res } = ctx;
  // Gone while the body was being prepared: nothing to write to.
  if (res.destroyed) {
    onClientGone();
    return;
  }
  // Registered before pipeTo runs, so it sees a visitor leaving before the writer does.
  res.once("close", () => {
    if (!res.writableFinished) onClientGone();
  });
  pipeTo(res);
}

/** Streams a body to the client; a source that fails mid-stream ends the client's response. */
export function streamResponse(ctx: Context, body: Readable): void {
  body.once("error", () => ctx.res.destroy());
  pipeResponse(ctx, (res) => body.pipe(res), () => body.destroy());
}
