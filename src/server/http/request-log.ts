import type { Middleware } from "koa";
import { NOT_FOUND_ROUTE } from "../../shared/sentry/reporting-rules";
import type { Logger } from "../logger";

export interface RequestRecord {
  method: string;
  /** The matched route pattern, or a fixed label: never the raw URL, which may hold secrets. */
  route: string;
  status: number;
  durationMs: number;
}

/** Where the render and tunnel layers record the pattern they matched. */
export function setRouteLabel(state: Record<string, unknown>, route: string): void {
  state.routeLabel = route;
}

function routeLabel(state: Record<string, unknown>, status: number): string {
  if (typeof state.routeLabel === "string") return state.routeLabel;
  return status === 404 ? NOT_FOUND_ROUTE : "unmatched";
}

/**
 * One line per request (method, route pattern, status, duration) and a hook for metrics.
 * Runs outermost, so the status it records is the one sent.
 */
export function requestLog(
  logger: Logger,
  observe?: (record: RequestRecord) => void,
): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const record: RequestRecord = {
        method: ctx.method,
        route: routeLabel(ctx.state, ctx.status),
        status: ctx.status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      };
      observe?.(record);
      // Probes hit every few seconds; at info they would drown the lines worth reading.
      const probe = record.route === "/healthz" || record.route === "/readyz";
      logger[probe ? "debug" : "info"](record, "request");
    }
  };
}
