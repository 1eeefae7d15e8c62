import { browserTracingIntegration } from "@sentry/react";
import { routes } from "../../shared/routes";
import { findRoute } from "../../shared/routing/find-route";
import { NOT_FOUND_ROUTE } from "../../shared/sentry/reporting-rules";
import { type ReportingPayload, startErrorReporting } from "./error-reporting";

/**
 * Error reporting plus tracing, loaded instead of error-reporting.ts where tracing is on.
 * The build gives this chunk its own copy of the SDK (see scripts/build/sentry-sourcemaps.mjs),
 * so none of the tracing code weighs on pages where tracing is off.
 *
 * Pageload and navigation transactions named by route pattern, never by raw URL. The
 * pageload takes the server's name for this document (which knows about loaders that threw
 * notFound()) and continues the server's trace from the sentry-trace and baggage meta tags.
 */
export function startErrorReportingWithTracing(payload: ReportingPayload): void {
  startErrorReporting(payload, [
    browserTracingIntegration({
      beforeStartSpan: (options) => ({
        ...options,
        name:
          options.op === "pageload"
            ? payload.route
            : (findRoute(routes, window.location.pathname, { diagnostics: true })?.route.path ??
              NOT_FOUND_ROUTE),
      }),
    }),
  ]);
}
