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
  const { req } = ctx;
  // The response's: a detached request (see drainDetached) no longer has one.
  const socket = ctx.res.socket;
  if (req.complete || !socket || socket.destroyed) return;
  const declared = Number(req.headers["content-length"]);
  if (!Number.isFinite(declared) || declared > maxBytes) return;
  if (req.destroyed) return drainDetached(req, socket, timeoutMs);
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

// How often a detached request is checked for its end; it emits no event once destroyed.
const DETACHED_CHECK_MS = 5;

/**
 * A request an upload stream destroyed after detaching it from its socket (undici does so with
 * a request body that fails upstream): Node's parser still feeds it the rest of the body, but
 * pauses the socket at the first chunk it cannot take. Marked dumped, as Node's server marks an
 * unread body once it has answered, its chunks are dropped instead, and it completes.
 */
async function drainDetached(req: Context["req"], socket: NonNullable<Context["res"]["socket"]>, timeoutMs: number): Promise<void> {
  (req as { _dumped?: boolean })._dumped = true;
  socket.resume();
  const deadline = performance.now() + timeoutMs;
  while (!req.complete && !socket.destroyed && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, DETACHED_CHECK_MS));
  }
}

/** A short plain-text refusal that says what was wrong; never echoes what the client sent. */
export function refuse(ctx: Context, status: number, message: string): void {
  ctx.status = status;
  ctx.type = "text/plain; charset=utf-8";
  ctx.body = `${message}\n`;
  discardUnreadBody(ctx);
}
