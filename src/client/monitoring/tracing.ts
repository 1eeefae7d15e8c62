import { browserTracingIntegration, getClient, type Span, startBrowserTracingNavigationSpan, updateSpanName } from "@sentry/react";
import { onNavigation } from "../navigation/core/navigation-events";
import { startPageSession } from "./page-session";
import { type ReportingPayload, startSentryClient } from "./sentry-client";

/**
 * Error reporting plus tracing, loaded instead of error-reporting.ts where tracing is on, once
 * the page is idle (the pageload transaction and web vitals need it on every page).
 * The build gives this chunk its own copy of the SDK (see scripts/build/sentry-sourcemaps.mjs),
 * so none of the tracing code weighs on pages where tracing is off.
 *
 * Pageload and navigation transactions are named by route pattern, never by raw URL. The
 * pageload takes the server's name for this document (which knows about loaders that threw
 * notFound()) and continues the server's trace from the sentry-trace and baggage meta tags.
 * Navigations are started by the router, not by the SDK's history instrumentation: the span
 * begins at the click, and once the server has answered it takes the final pattern, so a
 * navigation that ends on the not-found page is dropped by the reporting rules like a pageload.
 */
export function startErrorReportingWithTracing(payload: ReportingPayload): void {
  startPageSession(payload);
  startSentryClient(payload, [
    browserTracingIntegration({
      instrumentNavigation: false,
      beforeStartSpan: (options) => (options.op === "pageload" ? { ...options, name: payload.state.pattern } : options),
    }),
  ]);
  const client = getClient();
  if (!client) return;
  let navigation: { span: Span; pattern: string } | undefined;
  onNavigation({
    start: ({ pattern }) => {
      const span = startBrowserTracingNavigationSpan(client, { name: pattern, op: "navigation", attributes: { "sentry.source": "route" } });
      navigation = span ? { span, pattern } : undefined;
    },
    end: ({ pattern }) => {
      if (navigation && navigation.pattern !== pattern) updateSpanName(navigation.span, pattern);
      navigation = undefined;
    },
  });
}
