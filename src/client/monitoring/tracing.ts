import * as Sentry from "@sentry/react";
import { findRoute } from "../../shared/routing/find-route";
import { routes } from "../../shared/routes";
import { NOT_FOUND_ROUTE } from "../../shared/sentry/reporting-rules";

/**
 * Pageload and navigation transactions named by route pattern, never by raw URL. The
 * pageload takes the server's name for this document (which knows about loaders that threw
 * notFound()) and continues the server's trace from the sentry-trace and baggage meta tags.
 */
export function startTracing(pageloadRoute: string): void {
  Sentry.addIntegration(
    Sentry.browserTracingIntegration({
      beforeStartSpan: (options) => ({
        ...options,
        name:
          options.op === "pageload"
            ? pageloadRoute
            : (findRoute(routes, window.location.pathname, { diagnostics: true })?.route.path ??
              NOT_FOUND_ROUTE),
      }),
    }),
  );
}
