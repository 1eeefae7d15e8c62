import type { Context } from "koa";

/**
 * Gives up on the rest of an upload we are refusing: discards what is in flight and closes the
 * connection after answering, rather than reading an arbitrarily large body to keep it alive.
 */
export function discardUnreadBody(ctx: Context): void {
  if (ctx.req.complete) return;
  ctx.set("Connection", "close");
  ctx.req.resume();
}

/** A short plain-text refusal that says what was wrong; never echoes what the client sent. */
export function refuse(ctx: Context, status: number, message: string): void {
  ctx.status = status;
  ctx.type = "text/plain; charset=utf-8";
  ctx.body = `${message}\n`;
  discardUnreadBody(ctx);
}
