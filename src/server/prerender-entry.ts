import { randomBytes } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import appRoutes from "outpost:server-routes";
import { createApp, pageRuntimeConfig } from "./app";
import { loadAssets } from "./assets/manifest";
import { loadEnv, readAppSettings } from "./config/env.server";
import { createHttpServer, listen } from "./lifecycle/http-server";
import { createLogger } from "./logging/logger";
import { serializeAsScriptValue } from "../shared/document/serialize";
import { renderPrerendered } from "./prerender/render-prerendered";
import { PRERENDERED_DIR, type PrerenderedManifest } from "./prerender/prerendered-pages";
import { prerenderTargets } from "./prerender/prerender-urls";
import { createAppServices } from "./services/app-services";

// Run by scripts/build.mjs once the bundles are built (dist/server/prerender.js): renders every
// page that declares `prerender` through this build's own app, on a private port, into
// dist/prerendered/. Exits 1, naming the route, when a page cannot be prerendered.

const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The environment of the build's render: no Redis, no error reporting (the server's runtime
 * config replaces the build's in each document at start), diagnostics on (they are built
 * always and served only where enabled), and a throwaway secret when none is set.
 */
function buildEnvironment(source: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(source)) if (!name.startsWith("SENTRY_") && name !== "PUBLIC_SENTRY_DSN") env[name] = value;
  delete env.REDIS_URL;
  return {
    ...env,
    NODE_ENV: "production",
    SESSION_STORE: "cookie",
    ENABLE_DIAGNOSTIC_ROUTES: "true",
    LOG_LEVEL: "warn",
    SESSION_SECRET: source.SESSION_SECRET ?? randomBytes(32).toString("hex"),
  };
}

async function main(): Promise<number> {
  const env = loadEnv(buildEnvironment(process.env));
  // Checked first, as the server does at start.
  const settings = readAppSettings(appRoutes.settings);
  const assets = loadAssets(distDir);
  const outDir = path.join(distDir, PRERENDERED_DIR);
  await rm(outDir, { recursive: true, force: true });
  const targets = await prerenderTargets(appRoutes);
  if (targets.length === 0) return 0;
  const deps = { env, routes: appRoutes, publicDir: path.join(distDir, "public") };
  const logger = createLogger({ level: env.LOG_LEVEL });
  // Built by the server's composition root, for a render that keeps every page: no page cache, no Redis.
  const services = createAppServices({ ...deps, logger, settings, prerendering: true });
  const rendered = await renderPrerendered(targets, assets.manifest.buildId, (prerendering) =>
    createApp({ ...deps, logger, assets, readiness: { ready: true }, services, prerendering }),
  (app) => {
      const server = createHttpServer(app.callback());
      return listen(server, 0, "127.0.0.1").then((port) => ({ port, close: () => new Promise<void>((done) => server.close(() => done())) }));
    },
  );
  if (!rendered.ok) {
    for (const failure of rendered.failures) console.error(`prerender failed: ${failure}`);
    return 1;
  }
  await mkdir(path.join(outDir, "pages"), { recursive: true });
  const manifest: PrerenderedManifest = { buildId: assets.manifest.buildId, config: serializeAsScriptValue(pageRuntimeConfig(deps)), pages: [] };
  for (const [index, page] of rendered.pages.entries()) {
    const file = `pages/${index}.json`;
    await writeFile(path.join(outDir, file), JSON.stringify(page));
    manifest.pages.push({ path: page.path, pattern: page.pattern, file });
    console.log(`prerendered ${page.path}${page.path === page.pattern ? "" : ` (${page.pattern})`}`);
  }
  await writeFile(path.join(outDir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`prerendered ${rendered.pages.length} page${rendered.pages.length === 1 ? "" : "s"}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`prerender failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
