// esbuild options shared by the production build (scripts/build.mjs) and the dev watcher.
import path from "node:path";
import { appChunkPlugin } from "./app-chunk.mjs";
import { appRoutesPlugin } from "./app-routes.mjs";
import { styleImportsPlugin } from "./css/style-imports-plugin.mjs";
import { createStyleTransform } from "./css/style-transform.mjs";
import { outpostImportsPlugin } from "./outpost-imports.mjs";
import { builtinsViaRequire, dedupe, largeJsonAsParse, lazyRequire, ownCopy, projectOnlySourceMaps } from "./server-plugins.mjs";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const CLIENT_ENTRY = "src/client/entry.tsx";
/** What the entry runs: the module every lazily loaded chunk imports first (app-chunk.mjs). */
export const CLIENT_APP = "src/client/start.tsx";
/** The product's folder: its route table, pages and layouts (tests build a fixture app instead). */
export const APP_DIR = process.env.OUTPOST_APP_DIR ?? "src/app";
export const ASSET_PREFIX = "/assets/";

/**
 * @typedef {{ transform: ReturnType<typeof createStyleTransform>, classes?: Map<string, Record<string, string>> }} StyleOptions
 *   the one stylesheet transform of a build (css/style-transform.mjs), and where the script build
 *   records each CSS Module's class names
 */

/** A build's styles: one transform for its script and stylesheet builds. */
export function styleOptions({ production }) {
  return { transform: createStyleTransform({ root: ROOT, production }), classes: new Map() };
}

/**
 * @param {{ outDir: string, production: boolean, onRouteModules?: (modules: { id: string, relative: string }[]) => void, styles?: StyleOptions }} mode
 *   `onRouteModules`: told the app's route modules at each build (the dev script's Fast Refresh)
 */
export function clientOptions({ outDir, production, onRouteModules, styles = styleOptions({ production }) }) {
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
    // React's licence headers go to a .LEGAL.txt file beside each chunk, served with it and named
    // in a one-line comment, instead of riding in every visitor's download (decision 0112).
    legalComments: production ? "linked" : "eof",
    // Development keeps esbuild's own chunks: Fast Refresh re-imports a changed route's chunk,
    // and were every chunk to import the app's, a change to the app's code would then load a
    // second copy of it.
    plugins: [
      appRoutesPlugin({ root: ROOT, appDir: APP_DIR, target: "client", lazyRoot: !production, onModules: onRouteModules }),
      outpostImportsPlugin({ barrel: path.join(ROOT, "src/shared/outpost.ts") }),
      styleImportsPlugin(styles),
      ...(production ? [appChunkPlugin({ root: ROOT, app: CLIENT_APP })] : []),
    ],
    define: {
      "process.env.NODE_ENV": JSON.stringify(production ? "production" : "development"),
      // Sentry's SDK keeps its debug logging unless told otherwise; production drops it.
      __SENTRY_DEBUG__: JSON.stringify(!production),
    },
    logLevel: "warning",
  };
}

/**
 * Packages the server build leaves to node_modules; every other one is bundled, since one file
 * compiles much faster than hundreds of modules resolved and read one by one (start-up) and the
 * image then needs only these (scripts/image/runtime-modules.mjs). react and react-dom pick
 * their production or development build at run time, and bundled they would bring both;
 * pino-pretty is for development only. @sentry/node and koa are bundled too: that is safe only
 * while Sentry's runtime module hooks stay off (`enableRuntimeChannelInjection: false` in
 * src/server/monitoring/sentry-options.ts). An integration that instruments a package as it
 * loads needs that package, and @sentry/*, listed here. better-sqlite3 (the tunnel's spool) is
 * a native addon, found at run time next to its package.
 */
export const SERVER_EXTERNALS = ["react", "react-dom", "pino-pretty", "better-sqlite3"];

/** @param {{ outDir: string, buildId: string, styles?: StyleOptions }} mode */
export function serverOptions({ outDir, buildId, styles = styleOptions({ production: true }) }) {
  return {
    absWorkingDir: ROOT,
    // prerender.js: the build's own run of the pages that declare `prerender` (scripts/build.mjs).
    // The reporting rules too, though nothing loads that file: shared by the two modules that
    // load Sentry, they would otherwise join Sentry's chunk, whose map Node would then read and
    // line-index (≈ 1 MB) at every start with a DSN; an entry, they get a chunk of their own.
    entryPoints: [
      "src/server/index.ts",
      "src/server/instrument.ts",
      { in: "src/server/prerender-entry.ts", out: "prerender" },
      { in: "src/shared/sentry/reporting-rules.ts", out: "chunks/reporting-rules" },
    ],
    outdir: path.join(outDir, "server"),
    bundle: true,
    // Chunks keep lazily imported modules (Sentry's, loaded only with a DSN) out of start-up.
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    external: SERVER_EXTERNALS,
    // Bundled CommonJS packages call require() (for Node's built-ins), which ESM lacks.
    banner: { js: 'import { createRequire as __outpostRequire } from "node:module"; const require = __outpostRequire(import.meta.url);' },
    format: "esm",
    platform: "node",
    target: "node20.19",
    jsx: "automatic",
    sourcemap: "linked",
    // Stack traces need only the mappings (and those only for src/: see server-plugins.mjs).
    sourcesContent: false,
    plugins: [
      builtinsViaRequire,
      lazyRequire({ root: ROOT, pkg: "mime-types" }),
      dedupe({ root: ROOT, packages: ["mime-types"] }),
      // koa-body loads with the first POST body (src/server/forms/koa-body-parsers.ts).
      ownCopy({ pkg: "zod", importer: "koa-body" }),
      largeJsonAsParse,
      projectOnlySourceMaps({ root: ROOT }),
      appRoutesPlugin({ root: ROOT, appDir: APP_DIR, target: "server" }),
      styleImportsPlugin(styles),
    ],
    define: { __OUTPOST_BUILD_ID__: JSON.stringify(buildId) },
    logLevel: "warning",
  };
}
