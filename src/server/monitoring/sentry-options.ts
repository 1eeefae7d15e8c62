import * as Sentry from "@sentry/node";
import { SHARED_REPORTING_OPTIONS } from "../../shared/sentry/reporting-options";
import type { Env } from "../config/env.server";
import { sentryEnvironment, sentryRelease } from "./release";

/** Requests that are never traced: the tunnel (it relays Sentry's own traffic), probes, assets. */
export function untracedPaths(tunnelPath: string): RegExp {
  const tunnel = tunnelPath.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^(?:${tunnel}|/healthz|/readyz)(?:[/?]|$)|^/assets/`);
}

/** Initialises @sentry/node; instrument.ts loads this module only when SENTRY_DSN is set. */
export function initSentry(env: Env): void {
  Sentry.init(sentryOptions(env));
}

export function sentryOptions(env: Env): Sentry.NodeOptions {
  const untraced = untracedPaths(env.SENTRY_TUNNEL_PATH);
  const tracing = env.SENTRY_TRACES_SAMPLE_RATE > 0;
  return {
    dsn: env.SENTRY_DSN,
    environment: sentryEnvironment(env),
    release: sentryRelease(env),
    // A sample rate of 0 still costs most of tracing's overhead; leaving it unset switches
    // tracing off entirely (errors still carry trace ids for linking).
    ...(tracing ? { tracesSampleRate: env.SENTRY_TRACES_SAMPLE_RATE } : {}),
    ...SHARED_REPORTING_OPTIONS,
    // The server calls nothing that should continue its traces; in particular the tunnel's
    // upstream requests must carry only the headers the tunnel chooses. (No fetch/undici
    // integration either, for the same reason.)
    tracePropagationTargets: [],
    // No dedupe: the app captures each error once, and an error page shows the id it captured,
    // which must be an event Sentry receives even when the same error comes twice in a row.
    // Only what the app uses, to keep the SDK's per-request cost small. Koa's integration is
    // left out: its middleware spans need load-time module hooks (slow to start on Node 20),
    // and app errors are captured by the app itself (app.ts).
    enableRuntimeChannelInjection: false,
    defaultIntegrations: false,
    integrations: [
      Sentry.eventFiltersIntegration(),
      Sentry.functionToStringIntegration(),
      Sentry.linkedErrorsIntegration(),
      Sentry.requestDataIntegration(),
      // Per-request scopes and server spans, only where there are spans to record: without
      // tracing, request-monitoring.ts attaches the request to an error when one is captured.
      ...(tracing
        ? [
            Sentry.httpIntegration({
              ignoreIncomingRequests: (urlPath) => untraced.test(urlPath),
              // One session per request would double the envelopes for no use here.
              sessions: false,
            }),
          ]
        : []),
      Sentry.onUncaughtExceptionIntegration(),
      Sentry.onUnhandledRejectionIntegration(),
      Sentry.contextLinesIntegration(),
      // Not the culture context: the container's locale and time zone, read through Intl, whose
      // first use initialises ICU (≈ 20 ms of start-up on Node 24) for a value that never varies.
      Sentry.nodeContextIntegration({ culture: false }),
    ],
    // Request context without personal data: no IP, cookies, bodies or query strings.
    dataCollection: {
      userInfo: false,
      cookies: false,
      httpBodies: [],
      urlQueryParams: false,
      httpHeaders: { request: { allow: ["user-agent", "accept", "accept-language", "referer"] }, response: false },
    },
  };
}
