import type { Context } from "koa";
import { sendJson } from "../../http/json-body";
import { discardUnreadBody } from "../../http/refuse";
import type { Rejection, TunnelLogger, TunnelObserver } from "../contract/types";

export type { Rejection } from "../contract/types";

export type Reject = (ctx: Context, ...rejection: Rejection) => void;

/** Our own answers: short JSON naming what was wrong, one counter, at most one log line. */
export function createReject(observer: TunnelObserver | undefined, logger: TunnelLogger | undefined): Reject {
  return (ctx, status, reason, detail, logFields) => {
    observer?.rejected(reason);
    const line = { reason, status, ...logFields };
    if (reason === "client_aborted") logger?.info(line, "sentry tunnel: client aborted");
    else logger?.warn(line, "sentry tunnel: envelope rejected");

    ctx.status = status;
    sendJson(ctx, { detail });
    discardUnreadBody(ctx);
  };
}
