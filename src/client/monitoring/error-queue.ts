import type { ErrorInfo } from "react";
import { reportedByServer } from "../../shared/deferred/deferred-markers";

/**
 * The Sentry SDK is a chunk of its own, loaded once the page is idle after its load or at the
 * first error, whichever comes first, so it weighs on neither the first paint nor hydration.
 * Errors raised before it is ready wait here and are sent once it is: window errors and
 * unhandled rejections, and React's root error hooks, which hydrateRoot needs at once.
 */
export type ErrorSource = "global" | "rejection" | "uncaught" | "caught" | "recoverable";

export interface QueuedError {
  source: ErrorSource;
  error: unknown;
  info?: ErrorInfo;
}

type Sink = (queued: QueuedError) => void;

let sink: Sink | null = null;
const waiting: QueuedError[] = [];
let onFirstError: (() => void) | undefined;

function push(queued: QueuedError): void {
  if (process.env.NODE_ENV === "development" && queued.source !== "global") console.error(queued.error);
  // A deferred value's failure was reported by the server, which the browser learns by its type or digest.
  if (reportedByServer(queued.error)) return;
  if (sink) {
    sink(queued);
    return;
  }
  waiting.push(queued);
  const load = onFirstError;
  onFirstError = undefined;
  load?.();
}

const onError = (event: ErrorEvent) => {
  // No error object means a cross-origin script error: nothing useful to report.
  if (event.error !== undefined && event.error !== null) push({ source: "global", error: event.error });
};
const onRejection = (event: PromiseRejectionEvent) => push({ source: "rejection", error: event.reason });

/** Listens for errors until the SDK takes over; `loadSdk` is called at the first one. */
export function queueEarlyErrors(loadSdk: () => void): void {
  loadAtNextError(loadSdk);
  window.addEventListener("error", onError);
  window.addEventListener("unhandledrejection", onRejection);
}

/** The SDK could not be loaded: the errors stay queued, and the next one tries again. */
export function loadAtNextError(loadSdk: () => void): void {
  onFirstError = loadSdk;
}

/** Hands over to the SDK: its own global handlers take over from here. */
export function drainErrorsTo(next: Sink): void {
  window.removeEventListener("error", onError);
  window.removeEventListener("unhandledrejection", onRejection);
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
