// Loaded before anything else with `node --import`, so @sentry/node's hooks are in place
// before Koa is imported. Kept a separate build entry: bundled into index.js, esbuild would
// hoist `import Koa` above Sentry.init and Koa would go uninstrumented.
import * as Sentry from "@sentry/node";
import { loadEnvOrExit } from "./config/env.server";
import { sentryOptions } from "./monitoring/sentry-options";

const options = sentryOptions(loadEnvOrExit());
if (options) Sentry.init(options);
