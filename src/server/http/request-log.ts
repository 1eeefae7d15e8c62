import type { ServerResponse } from "node:http";
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

// Kept on the response itself, so one listener function serves every request (no closure each).
const STARTED = Symbol("outpost.requestStarted");
const LABEL = Symbol("outpost.requestLabel");

/** A response being logged: when it started, and its Koa state (labelled late) or its route. */
interface LoggedResponse extends ServerResponse {
  [STARTED]: number;
  [LABEL]: Record<string, unknown> | string;
}

export interface RequestLog {
  /** Koa's middleware: the route is read from the request's state once the response has closed. */
  middleware: Middleware;
  /** Logs an answer written before Koa (fixed-answers.ts), whose route is known at once. */
  track(res: ServerResponse, route: string): void;
}

function routeLabel(label: Record<string, unknown> | string, status: number): string {
  if (typeof label === "string") return label;
  return routeLabelOf(label) ?? (status === 404 ? NOT_FOUND_ROUTE : "unmatched");
}

/**
 * One line per request (method, route pattern, status, duration) and a hook for metrics,
 * written when the response has closed: the status is the one sent (also after an error Koa
 * answered), a streamed document counts until its last byte, and a visitor who left is told
 * apart from a finished response.
 */
export function createRequestLog(logger: Logger, observe?: (record: RequestRecord) => void): RequestLog {
  function onClose(this: LoggedResponse): void {
    // Unsent, res.statusCode is only Koa's default 404 (or what a handler set too late): counted as
    // such, a visitor leaving early would read as a missing page.
    const status = this.headersSent ? this.statusCode : CLIENT_CLOSED_REQUEST;
    const record: RequestRecord = {
      method: this.req.method as string,
      route: routeLabel(this[LABEL], status),
      status,
      durationMs: Math.round((performance.now() - this[STARTED]) * 10) / 10,
    };
    // The visitor left before the end; the status is the one that was being sent, if any was.
    if (!this.writableFinished) record.aborted = true;
    observe?.(record);
    // Probes hit every few seconds; at info they would drown the lines worth reading.
    const probe = record.route === "/healthz" || record.route === "/readyz";
    logger[probe ? "debug" : "info"](record, "request");
  }
  const watch = (res: ServerResponse, label: Record<string, unknown> | string) => {
    const logged = res as LoggedResponse;
    logged[STARTED] = performance.now();
    logged[LABEL] = label;
    // "close" is emitted once per response; on() spares once()'s wrapper on every request.
    res.on("close", onClose);
  };
  return {
    middleware: (ctx, next) => {
      watch(ctx.res, ctx.state);
      return next();
    },
    track: watch,
  };
}

/** The request log as Koa middleware alone (see createRequestLog). */
export function requestLog(logger: Logger, observe?: (record: RequestRecord) => void): Middleware {
  return createRequestLog(logger, observe).middleware;
}
