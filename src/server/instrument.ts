// Loaded before anything else with `node --import`, so Sentry is initialised (its process
// handlers, and with tracing its HTTP server subscription) before the app loads. Kept a separate
// build entry: bundled into index.js, esbuild would hoist the app's imports above Sentry.init.
import { loadEnvOrExit } from "./config/env.server";

const env = loadEnvOrExit();
// Loading @sentry/node is most of the start-up time, so without a DSN it is never loaded:
// reporting is then off with no network at all.
if (env.SENTRY_DSN) {
  const { initSentry } = await import("./monitoring/sentry-options");
  initSentry(env);
}
