import path from "node:path";
import { fileURLToPath } from "node:url";
import { createApp } from "./app";
import { loadAssets } from "./assets/manifest";
import { EnvError, loadEnv } from "./config/env.server";
import { devReloadStream } from "./dev/reload-stream";
import type { Readiness } from "./http/health";
import { createHttpServer, listen } from "./lifecycle/http-server";
import { exitOnSignals } from "./lifecycle/graceful-shutdown";
import { createLogger } from "./logger";

/** The process shell: configuration, listening, signals. Everything else is in app.ts. */
function readEnv() {
  try {
    return loadEnv();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

const env = readEnv();
const logger = createLogger({ level: env.LOG_LEVEL, pretty: env.NODE_ENV === "development" });
// This file is built to dist/server/index.js; the build's other outputs sit beside it.
const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const readiness: Readiness = { ready: false };

const app = createApp({
  env,
  logger,
  assets: loadAssets(distDir),
  readiness,
  extraMiddleware: env.NODE_ENV === "development" ? [devReloadStream()] : [],
});
const server = createHttpServer(app.callback());
const port = await listen(server, env.PORT, env.HOST);
readiness.ready = true;
logger.info({ host: env.HOST, port }, "listening");

exitOnSignals({ server, readiness, logger, deadlineMs: env.SHUTDOWN_TIMEOUT_MS });
