// Turns esbuild's client metafile into dist/manifest.json: the entry's hashed script, its
// CSS and statically imported chunks, and the list of files the server may serve.
import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { routeIdOfSource } from "./app-routes.mjs";
import { APP_DIR, ASSET_PREFIX, CLIENT_ENTRY, ROOT } from "./options.mjs";

/** The URL path an output of the client build (as the metafile names it) is served at. */
export function assetUrl(outDir, output) {
  const assetsDir = path.join(outDir, "client", "assets");
  return ASSET_PREFIX + path.relative(assetsDir, path.resolve(ROOT, output)).split(path.sep).join("/");
}

/** @param {import("esbuild").Metafile} metafile */
export function manifestFromMetafile(metafile, { outDir, serveSourceMaps }) {
  const toUrl = (output) => assetUrl(outDir, output);
  const outputs = Object.entries(metafile.outputs);
  // Sentry's plugin wraps the entry (`entry.tsx?sentryDebugIdProxy=true`), hence the split.
  const entry = outputs.find(([, meta]) => meta.entryPoint?.split("?")[0] === CLIENT_ENTRY);
  if (!entry) throw new Error(`esbuild produced no output for ${CLIENT_ENTRY}`);
  const [entryPath, entryMeta] = entry;

  const files = {};
  for (const [output] of outputs) {
    if (output.endsWith(".map") && !serveSourceMaps) continue;
    files[toUrl(output)] = path.relative(path.join(outDir, "client"), path.resolve(ROOT, output));
  }
  const names = Object.keys(files).sort();
  return {
    buildId: createHash("sha256").update(names.join("\n")).digest("hex").slice(0, 12),
    entry: {
      script: toUrl(entryPath),
      styles: entryMeta.cssBundle ? [toUrl(entryMeta.cssBundle)] : [],
      modulePreloads: entryMeta.imports
        .filter((item) => item.kind === "import-statement" && !item.external)
        .map((item) => toUrl(item.path)),
    },
    routes: routeChunks(metafile, toUrl, cssInputs(metafile, entryMeta.cssBundle)),
    files,
  };
}

/**
 * Each route module's chunk by route id (its file under the app folder, or the diagnostics', without extension), so
 * the server can preload the matched routes' code. The client build imports every route module
 * dynamically, which makes each an entry point of its own in the metafile.
 * esbuild's stylesheet for the entry holds the CSS of everything the entry reaches, lazily
 * too, so a route's own stylesheet adds nothing to it: linked only if it holds CSS the entry's
 * lacks. (In production every route chunk imports the app's module, root CSS included: see
 * app-chunk.mjs.)
 */
function routeChunks(metafile, toUrl, entryCss) {
  const addsCss = (cssBundle) => [...cssInputs(metafile, cssBundle)].some((input) => !entryCss.has(input));
  const routes = {};
  for (const [output, meta] of Object.entries(metafile.outputs)) {
    const id = routeIdOfSource(APP_DIR, meta.entryPoint?.split("?")[0] ?? "");
    if (id === undefined) continue;
    routes[id] = {
      script: toUrl(output),
      imports: meta.imports.filter((item) => item.kind === "import-statement" && !item.external).map((item) => toUrl(item.path)),
      styles: meta.cssBundle && addsCss(meta.cssBundle) ? [toUrl(meta.cssBundle)] : [],
    };
  }
  return routes;
}

/** The CSS files a stylesheet of the build was made from. */
function cssInputs(metafile, cssBundle) {
  return new Set(cssBundle ? Object.keys(metafile.outputs[cssBundle].inputs) : []);
}

export async function writeManifest(manifest, outDir) {
  await writeFile(path.join(outDir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}
