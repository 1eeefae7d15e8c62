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

/**
 * Before a refusal goes out: waits (at most `timeoutMs`) until an upload whose declared length
 * is within `maxBytes` has been read to its end and discarded. Answered and closed earlier, a
 * client still sending fails with EPIPE and never reads the answer; one that declared more
 * than the cap, or none, is not waited for.
 */
export async function drainRefusedUpload(ctx: Context, maxBytes: number, timeoutMs: number): Promise<void> {
  const req = ctx.req;
  if (req.complete || req.destroyed) return;
  const declared = Number(req.headers["content-length"]);
  if (!Number.isFinite(declared) || declared > maxBytes) return;
  req.resume();
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      req.off("end", done);
      req.off("close", done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    req.once("end", done);
    req.once("close", done);
  });
}

/** A short plain-text refusal that says what was wrong; never echoes what the client sent. */
export function refuse(ctx: Context, status: number, message: string): void {
  ctx.status = status;
  ctx.type = "text/plain; charset=utf-8";
  ctx.body = `${message}\n`;
  discardUnreadBody(ctx);
}
