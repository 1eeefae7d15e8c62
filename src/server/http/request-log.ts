import type { Middleware } from "koa";
import { NOT_FOUND_ROUTE } from "../../shared/routing/route-table";
import type { Logger } from "../logging/logger";
import { routeLabelOf } from "./route-label";

export interface RequestRecord {
  method: string;
  /** The matched route pattern, or a fixed label: never the raw URL, which may hold secrets. */
  route: string;
  status: number;
  durationMs: number;
  /** Set when the client went away before the response was complete. */
  aborted?: true;
}

/** nginx's "client closed request": the client left before any status was sent. */
export const CLIENT_CLOSED_REQUEST = 499;

function routeLabel(state: Record<string, unknown>, status: number): string {
  return routeLabelOf(state) ?? (status === 404 ? NOT_FOUND_ROUTE : "unmatched");
}

/**
 * One line per request (method, route pattern, status, duration) and a hook for metrics,
 * written when the response has closed: the status is the one sent (also after an error Koa
 * answered), a streamed document counts until its last byte, and a visitor who left is told
 * apart from a finished response.
 */
export function requestLog(
  logger: Logger,
  observe?: (record: RequestRecord) => void,
): Middleware {
  return (ctx, next) => {
    const started = performance.now();
    const { res } = ctx;
    // "close" is emitted once per response; on() spares once()'s wrapper on every request.
    res.on("close", () => {
      // Unsent, res.statusCode is only Koa's default 404 (or what a handler set too late): counted as
      // such, a visitor leaving early would read as a missing page.
      const status = res.headersSent ? res.statusCode : CLIENT_CLOSED_REQUEST;
      const record: RequestRecord = {
        method: ctx.method,
        route: routeLabel(ctx.state, status),
        status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      };
      // The visitor left before the end; the status is the one that was being sent, if any was.
      if (!res.writableFinished) record.aborted = true;
      observe?.(record);
      // Probes hit every few seconds; at info they would drown the lines worth reading.
      const probe = record.route === "/healthz" || record.route === "/readyz";
      logger[probe ? "debug" : "info"](record, "request");
    });
    return next();
  };
}
