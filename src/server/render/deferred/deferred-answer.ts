import type { Context } from "koa";
import { DEFERRED_DATA_TYPE } from "../../../shared/deferred/deferred-data";
import { pipeResponse } from "../../http/stream-response";
import type { DeferredLines } from "./deferred-lines";

/**
 * A data request's answer whose loaders deferred values: the encoded answer's first line at once,
 * then one line per value as it settles, in the same response. The lines' time limit bounds it:
 * values still pending then are abandoned (the page keeps their fallbacks); a visitor who leaves stops it.
 */
export function answerDeferred(ctx: Context, lines: DeferredLines): void {
  ctx.status = 200;
  ctx.res.setHeader("Content-Type", `${DEFERRED_DATA_TYPE}; charset=utf-8`);
  ctx.res.setHeader("Cache-Control", "no-store");
  pipeResponse(
    ctx,
    (res) => {
      res.write(`${lines.first}\n`);
      lines.follow(
        (line) => res.write(`${line}\n`),
        () => res.end(),
      );
    },
    (finished) => {
      if (!finished) lines.stop();
    },
  );
}
