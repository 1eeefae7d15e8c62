import type { ErrorInfo } from "react";
import { reportedByServer } from "../../shared/deferred/deferred-markers";
import { onNavigation } from "../navigation/core/navigation-events";

/**
 * The Sentry SDK is a chunk of its own, loaded at the page's first error (or, where tracing is
 * on, once the page is idle), so it weighs on neither the first paint nor hydration, nor on a
 * page without errors. Errors raised before it is ready wait here and are sent once it is:
 * window errors and unhandled rejections, and React's root error hooks, which hydrateRoot
 * needs at once. Each keeps the route pattern it was raised on, since the SDK may start later.
 */
export type ErrorSource = "global" | "rejection" | "uncaught" | "caught" | "recoverable";

export interface QueuedError {
  source: ErrorSource;
  error: unknown;
  info?: ErrorInfo;
  /** The route pattern the page showed when the error was raised. */
  pattern: string;
}

type Sink = (queued: QueuedError) => void;

let sink: Sink | null = null;
const waiting: QueuedError[] = [];
let onFirstError: (() => void) | undefined;
const observers = new Set<Sink>();
let pattern = "";

/** The error as reported, with its route, after telling the observers; undefined if the server reported it. */
function observe(raised: Omit<QueuedError, "pattern">): QueuedError | undefined {
  if (process.env.NODE_ENV === "development" && raised.source !== "global") console.error(raised.error);
  // A deferred value's failure was reported by the server, which the browser learns by its type or digest.
  if (reportedByServer(raised.error)) return undefined;
  const queued = { ...raised, pattern };
  for (const observer of observers) observer(queued);
  return queued;
}

function push(raised: Omit<QueuedError, "pattern">): void {
  const queued = observe(raised);
  if (!queued) return;
  if (sink) {
    sink(queued);
    return;
  }
  waiting.push(queued);
  const load = onFirstError;
  onFirstError = undefined;
  load?.();
}

// Once the SDK runs, its own global handlers report window errors: the observers are still told.
const onError = (event: ErrorEvent) => {
  // No error object means a cross-origin script error: nothing useful to report.
  if (event.error === undefined || event.error === null) return;
  if (sink) observe({ source: "global", error: event.error });
  else push({ source: "global", error: event.error });
};
const onRejection = (event: PromiseRejectionEvent) => {
  if (sink) observe({ source: "rejection", error: event.reason });
  else push({ source: "rejection", error: event.reason });
};

/** Listens for errors until the SDK takes over; `loadSdk` is called at the first one. */
export function queueEarlyErrors(loadSdk: () => void, initialPattern: string): void {
  pattern = initialPattern;
  onNavigation({ end: (navigation) => (pattern = navigation.pattern) });
  loadAtNextError(loadSdk);
  window.addEventListener("error", onError);
  window.addEventListener("unhandledrejection", onRejection);
}

/** The SDK could not be loaded: the errors stay queued, and the next one tries again. */
export function loadAtNextError(loadSdk: () => void): void {
  onFirstError = loadSdk;
}

/** The route pattern the page shows now. */
export const currentPattern = (): string => pattern;

/** Told of every error the page reports, those still queued at once (the release-health session, the SDK's loading). */
export function observeErrors(next: Sink): void {
  observers.add(next);
  for (const queued of waiting) next(queued);
}

/** Queues an error raised on an earlier page (unsent-errors.ts): no observer is told, it was this page's. */
export function queueEarlierError(queued: QueuedError): void {
  if (sink) sink(queued);
  else waiting.push(queued);
}

/** Hands over to the SDK: its own global handlers report window errors from here. */
export function drainErrorsTo(next: Sink): void {
  sink = next;
  onFirstError = undefined;
  for (const queued of waiting.splice(0)) next(queued);
}

/** React 19 root hooks for hydrateRoot: uncaught, caught (by a boundary) and recoverable errors. */
export const rootErrorHooks = {
  onUncaughtError: (error: unknown, info: ErrorInfo) => push({ source: "uncaught", error, info }),
  onCaughtError: (error: unknown, info: ErrorInfo) => push({ source: "caught", error, info }),
  onRecoverableError: (error: unknown, info: ErrorInfo) => push({ source: "recoverable", error, info }),
};
