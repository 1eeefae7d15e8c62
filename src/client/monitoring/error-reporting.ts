import * as Sentry from "@sentry/react";
import type { DocumentPayload } from "../../shared/document/payload";
import { dropRedirectSignals, IGNORED_SPANS } from "../../shared/sentry/reporting-rules";
import { tunnelUrl } from "../../shared/sentry/tunnel-url";

/**
 * Browser error reporting from the runtime config the server injected. Envelopes go to the
 * same-origin tunnel, so the browser never contacts a Sentry host. Returns false (and
 * loads nothing more) when the server sent no DSN.
 */
export function initErrorReporting({ config, route }: DocumentPayload): boolean {
  if (!config.sentryDsn) return false;
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
  // Tracing is its own chunk, fetched only where tracing is on, to keep the initial JS small.
  if (tracing) void import("./tracing").then((module) => module.startTracing(route));
  return true;
}

/** React 19 root hooks: uncaught, caught (by a boundary) and recoverable errors. */
export function rootErrorHooks() {
  return {
    onUncaughtError: Sentry.reactErrorHandler(),
    onCaughtError: Sentry.reactErrorHandler(),
    onRecoverableError: Sentry.reactErrorHandler(),
  };
}
