// Loaded before anything else with `node --import`, so @sentry/node's hooks are in place
// before Koa is imported. Kept a separate build entry: bundled into index.js, esbuild would
// hoist `import Koa` above Sentry.init and Koa would go uninstrumented.
import { loadEnvOrExit } from "./config/env.server";

const env = loadEnvOrExit();
// Loading @sentry/node is most of the start-up time, so without a DSN it is never loaded:
// reporting is then off with no network at all.
if (env.SENTRY_DSN) {
  const { initSentry } = await import("./monitoring/sentry-options");
  initSentry(env);
}
