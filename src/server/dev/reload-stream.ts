import { randomUUID } from "node:crypto";
import { PassThrough } from "node:stream";
import type { Middleware } from "koa";
import { DEV_RELOAD_PATH } from "../../client/dev-reload";

/**
 * Development only: an event stream that announces this process's boot id. The dev
 * script restarts the server on every rebuild; the page's EventSource reconnects to the
 * new process, sees a new id, and reloads. `retry: 100` makes that reconnect quick.
 */
export function devReloadStream(): Middleware {
  const bootId = randomUUID();
  return async (ctx, next) => {
    if (ctx.path !== DEV_RELOAD_PATH) return next();
    const stream = new PassThrough();
    ctx.type = "text/event-stream";
    ctx.set("Cache-Control", "no-store");
    ctx.body = stream;
    stream.write(`retry: 100\nevent: boot\ndata: ${bootId}\n\n`);
  };
}
