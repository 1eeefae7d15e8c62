import type { IncomingMessage } from "node:http";
import { generateTraceId, httpRequestToRequestData } from "@sentry/core";
import * as Sentry from "@sentry/node";
import { transactionName } from "../../shared/sentry/reporting-rules";
import type { UserFeedback } from "../../shared/routing/request";

/** What the server tells error reporting about one request. */
export interface RequestReport {
  /** Names the transaction and the error events by route pattern, never by raw URL. */
  nameRoute(method: string, route: string): void;
  /** A real error while answering this request; the visitor got an error page. Returns the event id. */
  captureError(error: unknown): string | undefined;
  /** sentry-trace and baggage for the document head, so the browser continues this trace. */
  traceMeta(): Record<string, string>;
}

export interface RequestMonitoring {
  forRequest(req: IncomingMessage): RequestReport;
  /** A visitor's feedback, linked to the event they saw when `eventId` is given; returns its id. */
  captureFeedback(feedback: UserFeedback): string;
}

// Handled: the visitor got the error page.
const MECHANISM = { type: "outpost.render", handled: true } as const;

/**
 * With tracing on, @sentry/node's HTTP integration gives every request its own isolation
 * scope and server span; this names them and reads the trace from them.
 */
const tracedRequest: RequestReport = {
  nameRoute(method, route) {
    const name = transactionName(method, route);
    Sentry.getIsolationScope().setTransactionName(name);
    const span = Sentry.getActiveSpan();
    if (span) Sentry.updateSpanName(Sentry.getRootSpan(span), name);
  },
  captureError(error) {
    return Sentry.captureException(error, { mechanism: MECHANISM });
  },
  traceMeta() {
    const data = Sentry.getTraceData();
    const meta: Record<string, string> = {};
    if (data["sentry-trace"]) meta["sentry-trace"] = data["sentry-trace"];
    if (data.baggage) meta.baggage = data.baggage;
    return meta;
  },
};

/**
 * With tracing off the SDK does no work per request (its HTTP integration is not installed:
 * scope cloning and trace continuation cost as much as the render). The request's context is
 * put together only when an error is captured, with a trace of its own. No trace meta tags:
 * the browser reads them only when it traces too.
 */
class ErrorOnlyRequest implements RequestReport {
  // The name is only put together for an error: most requests have none.
  #method: string | undefined;
  #route: string | undefined;
  readonly #req: IncomingMessage;

  constructor(req: IncomingMessage) {
    this.#req = req;
  }

  nameRoute(method: string, route: string): void {
    this.#method = method;
    this.#route = route;
  }

  captureError(error: unknown): string {
    return Sentry.withScope((scope) => {
      if (this.#method && this.#route) scope.setTransactionName(transactionName(this.#method, this.#route));
      // The same shape the HTTP integration records; requestData filters it by dataCollection.
      scope.setSDKProcessingMetadata({ normalizedRequest: httpRequestToRequestData(this.#req) });
      scope.setPropagationContext({ traceId: generateTraceId(), sampleRand: Math.random() });
      return Sentry.captureException(error, { mechanism: MECHANISM });
    });
  }

  traceMeta(): Record<string, string> {
    return {};
  }
}

/** No request data: what the visitor chose to write is all the feedback carries. */
function captureFeedback({ message, name, email, eventId }: UserFeedback): string {
  return Sentry.captureFeedback({ message, name, email, associatedEventId: eventId, source: "outpost-feedback-form" });
}

export function createRequestMonitoring({ tracing }: { tracing: boolean }): RequestMonitoring {
  return tracing
    ? { forRequest: () => tracedRequest, captureFeedback }
    : { forRequest: (req) => new ErrorOnlyRequest(req), captureFeedback };
}

/** Sends what is queued, bounded: called once the server has drained. */
export async function flushErrorReports(timeoutMs: number): Promise<void> {
  if (Sentry.isInitialized()) await Sentry.close(timeoutMs);
}
