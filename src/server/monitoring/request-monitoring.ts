import * as Sentry from "@sentry/node";
import { transactionName } from "../../shared/sentry/reporting-rules";

/** What the renderer tells error reporting about a request. */
export interface RequestMonitoring {
  /** Names the transaction and the scope by route pattern, never by raw URL. */
  nameRoute(method: string, route: string): void;
  captureError(error: unknown): void;
  /** sentry-trace and baggage for the document head, so the browser continues this trace. */
  traceMeta(): Record<string, string>;
}

export const sentryRequestMonitoring: RequestMonitoring = {
  nameRoute(method, route) {
    const name = transactionName(method, route);
    Sentry.getIsolationScope().setTransactionName(name);
    const span = Sentry.getActiveSpan();
    if (span) Sentry.updateSpanName(Sentry.getRootSpan(span), name);
  },
  captureError(error) {
    // Handled: the visitor got the error page; the request scope supplies the request data.
    Sentry.captureException(error, { mechanism: { type: "outpost.render", handled: true } });
  },
  traceMeta() {
    const data = Sentry.getTraceData();
    const meta: Record<string, string> = {};
    if (data["sentry-trace"]) meta["sentry-trace"] = data["sentry-trace"];
    if (data.baggage) meta.baggage = data.baggage;
    return meta;
  },
};

/** Sends what is queued, bounded: called once the server has drained. */
export async function flushErrorReports(timeoutMs: number): Promise<void> {
  if (Sentry.isInitialized()) await Sentry.close(timeoutMs);
}
