import type { ServerResponse } from "node:http";
import type { Readable } from "node:stream";
import type { Context } from "koa";

/** How a handed-over response ended: `finished` is false when the client left before the end. */
export type OnResponseClosed = (finished: boolean) => void;

/**
 * Hands the response to `pipeTo` rather than to Koa. Koa's pipeline turns a visitor leaving
 * mid-stream into an app "error", which error reporting would count as one; here it only
 * reaches `onClosed(false)`. Status and headers must be set on ctx first. One listener per
 * response tells both endings apart, so callers need none of their own. A HEAD is answered here
 * for every writer that bypasses Koa, as Koa's respond() does for the others: status and headers,
 * no body, and the source stopped as for a visitor who left.
 */
export function pipeResponse(ctx: Context, pipeTo: (res: ServerResponse) => void, onClosed: OnResponseClosed): void {
  ctx.respond = false;
  const { res } = ctx;
  // Gone while the body was being prepared: nothing to write to.
  if (res.destroyed) {
    onClosed(false);
    return;
  }
  if (ctx.req.method === "HEAD") {
    onClosed(false);
    res.end();
    return;
  }
  // Registered before pipeTo runs, so it sees a visitor leaving before the writer does.
  // "close" is emitted once per response; on() spares once()'s wrapper on every page.
  res.on("close", () => onClosed(res.writableFinished));
  pipeTo(res);
}

/** Streams a body to the client; a source that fails mid-stream ends the client's response. */
export function streamResponse(ctx: Context, body: Readable): void {
  body.once("error", () => ctx.res.destroy());
  pipeResponse(
    ctx,
    (res) => body.pipe(res),
    (finished) => {
      if (!finished) body.destroy();
    },
  );
}

/**
 * Streams a web body (a resource route's Response) to the client through its reader, waiting for
 * "drain" when the socket is full; a source that fails ends the client's response, a client that
 * leaves cancels the source. Not `Readable.fromWeb`: each open adapter made every young-generation
 * collection of the process keep its other requests' objects (see docs/decisions/0104).
 */
export function streamWebBody(ctx: Context, body: ReadableStream<Uint8Array>): void {
  const reader = body.getReader();
  pipeResponse(
    ctx,
    (res) => pumpInto(reader, res),
    (finished) => {
      if (!finished) reader.cancel().catch(() => undefined);
    },
  );
}

function pumpInto(reader: ReadableStreamDefaultReader<Uint8Array>, res: ServerResponse): void {
  const fail = () => res.destroy();
  const readNext = () => reader.read().then(write, fail);
  const write = (result: ReadableStreamReadResult<Uint8Array>): void => {
    if (res.destroyed) return;
    if (result.done) res.end();
    else if (res.write(result.value)) void readNext();
    else res.once("drain", readNext);
  };
  void readNext();
}

/**
 * Ends the response with the status and headers already set and no body (a bodiless web Response). Left to Koa, a null body turns a 200 into 204 and drops
 * Content-Type and Content-Length.
 */
export function endWithoutBody(ctx: Context): void {
  ctx.respond = false;
  ctx.res.end();
}
