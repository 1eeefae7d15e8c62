// esbuild splits code by the set of entry points that reach it, and each module the browser
// imports lazily (a route's page, Sentry's chunk, the error pages' feedback form) is an entry
// point. Every module the entry shares with some of them went to a chunk of its own per set:
// React, the JSX runtime, Link, the router context, … a dozen small files for `/`, each
// compressed on its own (~2 KiB gzip more than one file). Every lazy chunk runs after the
// entry started the app anyway, so here each one first imports the app's module: everything
// that module reaches is then reached by every entry point, and so is one chunk.
import path from "node:path";
import * as esbuild from "esbuild";

const SUFFIX = "?after-app";
const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

/** @param {{ root: string, app: string }} options app: the module (relative to root) every lazy chunk imports first */
export function appChunkPlugin({ root, app }) {
  const appPath = path.join(root, app);
  return {
    name: "outpost-app-chunk",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== "dynamic-import" || args.pluginData?.appChunk || args.importer.includes(NODE_MODULES)) return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { appChunk: true },
        });
        if (resolved.errors.length > 0 || resolved.namespace !== "file" || resolved.path.includes(NODE_MODULES)) return undefined;
        return { path: resolved.path, suffix: SUFFIX, sideEffects: resolved.sideEffects };
      });
      build.onLoad({ filter: /.*/, namespace: "file" }, async (args) => {
        if (args.suffix !== SUFFIX) return undefined;
        const target = JSON.stringify(args.path);
        const lines = [`import ${JSON.stringify(appPath)};`, `export * from ${target};`];
        // `export *` leaves out the default export (a page's component): named apart, if any.
        if (await exportsDefault(args.path)) lines.push(`export { default } from ${target};`);
        return { contents: lines.join("\n"), loader: "js", resolveDir: path.dirname(args.path), pluginData: { appChunk: true } };
      });
    },
  };
}

/** Whether a module has a default export, by esbuild's reading of that one file. */
async function exportsDefault(file) {
  const { metafile } = await esbuild.build({
    entryPoints: [file],
    bundle: false,
    write: false,
    metafile: true,
    format: "esm",
    jsx: "automatic",
    logLevel: "silent",
  });
  return Object.values(metafile.outputs).some((output) => output.exports.includes("default"));
}
