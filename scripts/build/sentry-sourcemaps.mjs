// Sentry's part of the production client build.
// - Debug ids in the browser bundle and its source maps, so Sentry can symbolicate minified
//   stack frames without the maps ever being served. With SENTRY_AUTH_TOKEN (plus SENTRY_ORG
//   and SENTRY_PROJECT) the maps are uploaded for the release and then deleted from the build;
//   without it nothing leaves the machine and one info line says so.
// - The tracing chunk gets its own copy of the SDK, so that no tracing code lands in the
//   error-reporting chunk (see tracingGetsItsOwnSdk).
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { stringToUUID } from "@sentry/bundler-plugins/core";
import { sentryEsbuildPlugin } from "@sentry/bundler-plugins/esbuild";
import { CLIENT_APP } from "./options.mjs";

/**
 * Debug ids make the maps match without a release; with SENTRY_RELEASE set the upload is
 * also attached to that release.
 * @param {{ release: string | undefined, outDir: string }} options
 * @returns {import("esbuild").Plugin}
 */
export function sentrySourceMapsPlugin({ release, outDir }) {
  const token = process.env.SENTRY_AUTH_TOKEN;
  if (token && !(process.env.SENTRY_ORG && process.env.SENTRY_PROJECT)) {
    throw new Error("SENTRY_AUTH_TOKEN is set, so SENTRY_ORG and SENTRY_PROJECT are required to upload source maps");
  }
  if (!token) console.info("sentry: SENTRY_AUTH_TOKEN not set, injecting debug ids without uploading source maps");
  const upstream = sentryEsbuildPlugin({
    org: process.env.SENTRY_ORG,
    project: process.env.SENTRY_PROJECT,
    authToken: token,
    telemetry: false,
    silent: !token,
    release: {
      name: release,
      // The server injects the release at request time (runtime config); no build-time global.
      inject: false,
      create: Boolean(token && release),
      finalize: Boolean(token && release),
      setCommits: false,
    },
    sourcemaps: {
      disable: token ? false : "disable-upload",
      assets: [`${outDir}/client/**`],
      // Only after a real upload: the plugin would delete them even when it skipped it.
      filesToDeleteAfterUpload: token ? [`${outDir}/client/**/*.map`] : undefined,
    },
  });
  return {
    name: "outpost-sentry",
    setup(build) {
      // Registered first, so these callbacks run before the upstream plugin's.
      tracingGetsItsOwnSdk(build);
      contentDebugIds(build);
      debugIdWithTheApp(build);
      return upstream.setup(build);
    },
  };
}

const STUB = /^_sentry-debug-id-injection-stub$/;
const STUB_NAMESPACE = "sentry-debug-id-stub";
const PLACEHOLDER = "5e5e5e5e-5e5e-4e5e-8e5e-5e5e5e5e5e5e";
// Upstream's getDebugIdSnippet, for the browsers the client build targets (es2022): globalThis
// instead of its probe for window, global and self. Same globals set, a tenth of a KiB less gzip.
const DEBUG_ID_SNIPPET = `!function(){try{var e=globalThis,n=new e.Error().stack;n&&((e._sentryDebugIds||={})[n]="${PLACEHOLDER}",e._sentryDebugIdIdentifier="sentry-dbid-${PLACEHOLDER}")}catch{}}();`;

/**
 * The upstream stub holds a random UUID, so the entry's content hash changed on every build
 * and every deploy re-downloaded it. Here the stub holds a fixed placeholder, and once
 * esbuild has written the files the placeholder becomes a UUID derived from the file's
 * content (as Sentry's Rollup and webpack plugins derive theirs), before upstream stamps it
 * into the file and its map. Same sources, same bytes, same name.
 * @param {import("esbuild").PluginBuild} build
 */
function contentDebugIds(build) {
  build.onResolve({ filter: STUB }, (args) => ({ path: args.path, namespace: STUB_NAMESPACE, sideEffects: true }));
  build.onLoad({ filter: STUB, namespace: STUB_NAMESPACE }, () => ({
    loader: "js",
    contents: DEBUG_ID_SNIPPET,
  }));
  build.onEnd(async (result) => {
    if (!result.metafile || build.initialOptions.write === false) return;
    const root = build.initialOptions.absWorkingDir ?? process.cwd();
    for (const output of Object.keys(result.metafile.outputs)) {
      if (!output.endsWith(".js")) continue;
      const file = path.resolve(root, output);
      const code = await readFile(file, "utf8");
      if (code.includes(PLACEHOLDER)) await writeFile(file, code.replaceAll(PLACEHOLDER, stringToUUID(code)));
    }
  });
}

/**
 * Upstream puts the debug id snippet in the entry, and the snippet registers the file it runs
 * in. The entry only calls the app's module, whose chunk holds the app and React (see
 * app-chunk.mjs): the snippet goes there, imported at the module's end (imports are hoisted,
 * and its source map's lines stay the file's).
 * @param {import("esbuild").PluginBuild} build
 */
function debugIdWithTheApp(build) {
  const app = path.resolve(build.initialOptions.absWorkingDir ?? process.cwd(), CLIENT_APP);
  build.onLoad({ filter: /.*/, namespace: "file" }, async (args) => {
    if (args.path !== app || args.suffix) return undefined;
    const source = await readFile(args.path, "utf8");
    return { contents: `${source}\nimport "_sentry-debug-id-injection-stub";\n`, loader: LOADERS[path.extname(args.path)] };
  });
}

const TRACING_ROOT = path.join("src", "client", "monitoring", "tracing.ts");
// What the tracing chunk loads a copy of: the SDK, and the app's modules that import it.
// error-queue.ts and event-ids.ts are left out: they are part of the app's code (the queue run
// at start, the ids the error pages read) and must stay one instance.
const COPIED = /[\\/](?:node_modules[\\/]@sentry|src[\\/]shared[\\/]sentry|src[\\/]client[\\/]monitoring[\\/](?!error-queue\.|event-ids\.))/;
const SUFFIX = "?with-tracing";
const LOADERS = { ".js": "js", ".mjs": "js", ".ts": "ts", ".tsx": "tsx" };

/**
 * The entry loads either error-reporting.ts or, where tracing is on, tracing.ts (which
 * wraps it): never both. esbuild, though, assigns code to chunks file by file, so a file
 * both reach goes to a shared chunk with every part of it that either uses; and as the SDK's
 * files import each other through barrels (`index.js` re-exporting everything), that shared
 * chunk held browserTracingIntegration, web-vitals and the rest of tracing, fetched on every
 * page with a DSN. Here everything tracing.ts reaches under COPIED is loaded a second time
 * under its own name (a path suffix), so the two chunks share nothing but the app's modules
 * and each holds one complete SDK. The browser runs exactly one of them.
 * @param {import("esbuild").PluginBuild} build
 */
function tracingGetsItsOwnSdk(build) {
  const root = path.resolve(build.initialOptions.absWorkingDir ?? process.cwd(), TRACING_ROOT);
  build.onResolve({ filter: /.*/ }, async (args) => {
    if (args.pluginData?.resolving || !(args.pluginData?.withTracing || args.importer === root)) return undefined;
    const { path: resolved, sideEffects, errors } = await build.resolve(args.path, {
      kind: args.kind,
      importer: args.importer,
      resolveDir: args.resolveDir,
      pluginData: { resolving: true },
    });
    if (errors.length || !COPIED.test(resolved)) return undefined;
    return { path: resolved, suffix: SUFFIX, sideEffects, pluginData: { withTracing: true } };
  });
  build.onLoad({ filter: /.*/, namespace: "file" }, async (args) => {
    if (args.suffix !== SUFFIX) return undefined;
    return {
      contents: await readFile(args.path, "utf8"),
      loader: LOADERS[path.extname(args.path)] ?? "js",
      resolveDir: path.dirname(args.path),
      pluginData: { withTracing: true },
    };
  });
}
