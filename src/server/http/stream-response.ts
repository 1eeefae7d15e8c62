import type { Readable } from "node:stream";
import type { Context } from "koa";

/**
 * Pipes a streamed body to the client ourselves rather than through Koa. Koa's pipeline
 * turns a visitor leaving mid-stream into an app "error", which error reporting would
 * count as one; here it only stops the source (`onClientGone`). A source that fails
 * mid-stream ends the client's response. Status and headers must be set on ctx first.
 */
export function streamResponse(ctx: Context, body: Readable, onClientGone: () => void = () => {}): void {
  ctx.respond = false;
  const { res } = ctx;
  res.once("close", () => {
    if (res.writableFinished) return;
    onClientGone();
    body.destroy();
  });
  body.once("error", () => res.destroy());
  body.pipe(res);
}
