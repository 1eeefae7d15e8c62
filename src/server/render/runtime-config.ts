import type { FeedbackPage } from "../../shared/document/feedback-page";
import type { RuntimeConfig } from "../../shared/document/payload";
import { browserDsn, type Env } from "../config/env.server";
import { sentryEnvironment, sentryRelease } from "../monitoring/release";

/** Chosen per deployment at start, not at build time, so one build serves every environment. */
export function runtimeConfig(env: Env, { feedbackPage, favicon }: { feedbackPage: FeedbackPage | null; favicon: boolean }): RuntimeConfig {
  return {
    sentryDsn: browserDsn(env) ?? null,
    tunnelPath: env.SENTRY_TUNNEL_PATH,
    environment: sentryEnvironment(env),
    release: sentryRelease(env),
    tracesSampleRate: env.SENTRY_TRACES_SAMPLE_RATE,
    diagnostics: env.ENABLE_DIAGNOSTIC_ROUTES,
    feedbackPage,
    favicon,
  };
}
