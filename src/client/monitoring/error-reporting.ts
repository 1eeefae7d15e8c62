import * as Sentry from "@sentry/react";
import type { DocumentPayload } from "../../shared/document/payload";
import { dropRedirectSignals, IGNORED_SPANS } from "../../shared/sentry/reporting-rules";
import { tunnelUrl } from "../../shared/sentry/tunnel-url";
import { drainErrorsTo, type QueuedError } from "./error-queue";

/**
 * Browser error reporting from the runtime config the server injected (a chunk of its own,
 * see error-queue.ts). Envelopes go to the same-origin tunnel, so the browser never
 * contacts a Sentry host.
 */
export function startErrorReporting({ config, route }: DocumentPayload & { config: { sentryDsn: string } }): void {
  const tracing = config.tracesSampleRate > 0;
  Sentry.init({
    dsn: config.sentryDsn,
    tunnel: tunnelUrl(config.sentryDsn, config.tunnelPath),
    environment: config.environment,
    release: config.release,
    ...(tracing ? { tracesSampleRate: config.tracesSampleRate } : {}),
    // As on the server: transactions are judged by their final name (see reporting-rules).
    traceLifecycle: "static",
    ignoreSpans: IGNORED_SPANS,
    beforeSend: dropRedirectSignals,
    dataCollection: { userInfo: false },
    defaultIntegrations: false,
    integrations: [
      Sentry.eventFiltersIntegration(),
      Sentry.functionToStringIntegration(),
      Sentry.browserApiErrorsIntegration(),
      Sentry.breadcrumbsIntegration(),
      Sentry.globalHandlersIntegration(),
      Sentry.linkedErrorsIntegration(),
      Sentry.dedupeIntegration(),
      Sentry.httpContextIntegration(),
    ],
  });
  // Error events are grouped by route pattern, like the pageload.
  Sentry.getCurrentScope().setTransactionName(route);
  drainErrorsTo(capture);
  // Tracing is a further chunk, fetched only where tracing is on.
  if (tracing) void import("./tracing").then((module) => module.startTracing(route));
}

const reactHandler = Sentry.reactErrorHandler();

function capture({ source, error, info }: QueuedError): void {
  if (info) {
    reactHandler(error, info);
    return;
  }
  const type = source === "rejection" ? "auto.browser.global_handlers.onunhandledrejection" : "auto.browser.global_handlers.onerror";
  Sentry.captureException(error, { mechanism: { type, handled: false } });
}
