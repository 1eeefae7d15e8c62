import type { DocumentPayload } from "../../shared/document/payload";
import { importWithRetry } from "../recovery/import-with-retry";
import { loadAtNextError, queueEarlyErrors } from "./error-queue";

/** The SDK's chunk is fetched again after each of these while it fails: the visit's errors wait for it. */
const SDK_RETRY_DELAYS_MS = [500, 2_000, 5_000];

/**
 * Starts error reporting without making the page wait for it: errors are queued from now on,
 * and the reporting chunk loads at the first error or once the page has loaded and the browser
 * is idle, whichever comes first: error-reporting.ts, which fetches the SDK itself at the first
 * error, or tracing.ts (the SDK with tracing) where tracing is on. Web vitals lose nothing by
 * the wait: the SDK reads them from buffered performance entries and the pageload span starts
 * at the navigation's time origin. A chunk that fails to fetch (a deploy removed it) is fetched
 * again a few times with backoff, then at the next error; the errors stay queued meanwhile.
 */
export function loadErrorReporting(payload: DocumentPayload, sentryDsn: string): void {
  let loading = false;
  const load = () => {
    if (loading) return;
    loading = true;
    const begin =
      payload.config.tracesSampleRate > 0
        ? importWithRetry(() => import("./tracing"), SDK_RETRY_DELAYS_MS).then((module) => module.startErrorReportingWithTracing)
        : importWithRetry(() => import("./error-reporting"), SDK_RETRY_DELAYS_MS).then((module) => module.startErrorReporting);
    void begin.then(
      (startReporting) => startReporting({ ...payload, config: { ...payload.config, sentryDsn } }),
      () => {
        // Still missing (no replica has it, or the network is down): the errors wait for the next try.
        loading = false;
        loadAtNextError(load);
      },
    );
  };
  queueEarlyErrors(load, payload.state.pattern);
  whenIdleAfterLoad(load);
}

// Safari has no requestIdleCallback; the timeout bounds the wait on a page that is never idle.
const IDLE_TIMEOUT_MS = 2_000;

function whenIdleAfterLoad(task: () => void): void {
  const idle = () => {
    if (typeof requestIdleCallback === "function") requestIdleCallback(task, { timeout: IDLE_TIMEOUT_MS });
    else setTimeout(task, 0);
  };
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
}
