// Loaded before anything else with `node --import`, so Sentry is initialised (its process
// handlers, and with tracing its HTTP server subscription) before the app loads. Kept a separate
// build entry: bundled into index.js, esbuild would hoist the app's imports above Sentry.init.

// Stack traces map to the TypeScript sources for every module loaded from here on (so this file
// imports nothing statically). Enabled here rather than with --enable-source-maps: the flag also
// makes util.getCallSites map its frames, which pino calls as it creates a logger, parsing the
// server bundle's whole source map before the first request (docs/decisions/0016-start-up-loads-on-first-use.md).
process.setSourceMapsEnabled(true);

const { loadEnvOrExit } = await import("./config/env.server");
const env = loadEnvOrExit();
// Loading @sentry/node is most of the start-up time, so without a DSN it is never loaded:
// reporting is then off with no network at all.
if (env.SENTRY_DSN) {
  const { initSentry } = await import("./monitoring/sentry-options");
  initSentry(env);
}
// A module (for top-level await) that exports nothing.
export {};
