import type { DocumentPayload } from "../../shared/document/payload";
import { queueEarlyErrors } from "./error-queue";

/**
 * Starts error reporting without making the page wait for the SDK: errors are queued from now
 * on, and the SDK's chunk (tracing's where tracing is on) loads at the first error or once the
 * page has loaded and the browser is idle, whichever comes first. Web vitals lose nothing by
 * the wait: the SDK reads them from buffered performance entries and the pageload span starts
 * at the navigation's time origin.
 */
export function loadErrorReporting(payload: DocumentPayload, sentryDsn: string): void {
  let loading = false;
  const load = () => {
    if (loading) return;
    loading = true;
    const begin =
      payload.config.tracesSampleRate > 0
        ? import("./tracing").then((module) => module.startErrorReportingWithTracing)
        : import("./error-reporting").then((module) => module.startErrorReporting);
    void begin.then((startReporting) => startReporting({ ...payload, config: { ...payload.config, sentryDsn } }));
  };
  queueEarlyErrors(load);
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
