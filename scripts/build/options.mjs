// esbuild options shared by the production build (scripts/build.mjs) and the dev watcher.
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const CLIENT_ENTRY = "src/client/entry.tsx";
export const ASSET_PREFIX = "/assets/";

/** @param {{ outDir: string, production: boolean }} mode */
export function clientOptions({ outDir, production }) {
  return {
    absWorkingDir: ROOT,
    entryPoints: { entry: CLIENT_ENTRY },
    outdir: path.join(outDir, "client", "assets"),
    publicPath: ASSET_PREFIX,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: ["es2022", "chrome111", "firefox111", "safari16.4"],
    jsx: "automatic",
    minify: production,
    // Production maps are written beside the bundle but never linked or served (see
    // src/server/assets): they are for Sentry's symbolication. Development links them.
    sourcemap: production ? "external" : "linked",
    entryNames: "[name]-[hash]",
    chunkNames: "chunks/[name]-[hash]",
    assetNames: "[name]-[hash]",
    metafile: true,
    define: {
      "process.env.NODE_ENV": JSON.stringify(production ? "production" : "development"),
      // Sentry's SDK keeps its debug logging unless told otherwise; production drops it.
      __SENTRY_DEBUG__: JSON.stringify(!production),
    },
    logLevel: "warning",
  };
}

/** @param {{ outDir: string, buildId: string }} mode */
export function serverOptions({ outDir, buildId }) {
  return {
    absWorkingDir: ROOT,
    entryPoints: ["src/server/index.ts", "src/server/instrument.ts"],
    outdir: path.join(outDir, "server"),
    bundle: true,
    // Chunks keep lazily imported modules (Sentry's, loaded only with a DSN) out of start-up.
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    packages: "external",
    format: "esm",
    platform: "node",
    target: "node20.19",
    jsx: "automatic",
    sourcemap: "linked",
    define: { __OUTPOST_BUILD_ID__: JSON.stringify(buildId) },
    logLevel: "warning",
  };
}
