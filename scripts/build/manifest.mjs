// Turns esbuild's client metafile into dist/manifest.json: the entry's hashed script, its
// CSS and statically imported chunks, and the list of files the server may serve.
import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { routeIdOfSource } from "./app-routes.mjs";
import { routeStylesheets } from "./css/route-styles.mjs";
import { APP_DIR, ASSET_PREFIX, CLIENT_ENTRY, ROOT } from "./options.mjs";

/** The URL path an output of the client build (as the metafile names it) is served at. */
export function assetUrl(outDir, output) {
  const assetsDir = path.join(outDir, "client", "assets");
  return ASSET_PREFIX + path.relative(assetsDir, path.resolve(ROOT, output)).split(path.sep).join("/");
}

/**
 * @param {import("esbuild").Metafile} metafile the browser's script build
 * @param {{ outDir: string, serveSourceMaps: boolean, routeModules: Map<string, string>,
 *   stylesheets: { outputs: Map<string, string>, metafile: import("esbuild").Metafile } }} options
 *   `routeModules`: each route module's source by route id; `stylesheets`: the stylesheet build's
 */
export function manifestFromMetafile(metafile, { outDir, serveSourceMaps, routeModules, stylesheets }) {
  const toUrl = (output) => assetUrl(outDir, output);
  const outputs = Object.entries(metafile.outputs);
  // Sentry's plugin wraps the entry (`entry.tsx?sentryDebugIdProxy=true`), hence the split.
  const entry = outputs.find(([, meta]) => meta.entryPoint?.split("?")[0] === CLIENT_ENTRY);
  if (!entry) throw new Error(`esbuild produced no output for ${CLIENT_ENTRY}`);
  const [entryPath, entryMeta] = entry;

  const files = {};
  for (const [output] of [...outputs, ...Object.entries(stylesheets.metafile.outputs)]) {
    if (output.endsWith(".map") && !serveSourceMaps) continue;
    files[toUrl(output)] = path.relative(path.join(outDir, "client"), path.resolve(ROOT, output));
  }
  const names = Object.keys(files).sort();
  const styles = routeStylesheets(metafile, { entry: CLIENT_ENTRY, routeModules });
  const styleUrls = (sources) => sources.map((source) => toUrl(stylesheets.outputs.get(path.resolve(ROOT, source))));
  return {
    buildId: createHash("sha256").update(names.join("\n")).digest("hex").slice(0, 12),
    entry: {
      script: toUrl(entryPath),
      styles: styleUrls(styles.entry),
      modulePreloads: entryMeta.imports
        .filter((item) => item.kind === "import-statement" && !item.external)
        .map((item) => toUrl(item.path)),
    },
    routes: routeChunks(metafile, toUrl, Object.fromEntries(Object.entries(styles.routes).map(([id, sources]) => [id, styleUrls(sources)]))),
    files,
  };
}

/**
 * Each route module's chunk by route id (its file under the app folder, or the diagnostics', without
 * extension), so the server can preload the matched routes' code, and the stylesheets it links
 * (css/route-styles.mjs). The client build imports every route module dynamically, which makes
 * each an entry point of its own in the metafile; the root layout, part of the entry in
 * production, has stylesheets but no chunk.
 */
function routeChunks(metafile, toUrl, routeStyles) {
  const routes = {};
  for (const [id, styles] of Object.entries(routeStyles)) routes[id] = { imports: [], styles };
  for (const [output, meta] of Object.entries(metafile.outputs)) {
    const id = routeIdOfSource(APP_DIR, meta.entryPoint?.split("?")[0] ?? "");
    if (id === undefined) continue;
    routes[id] = {
      script: toUrl(output),
      imports: meta.imports.filter((item) => item.kind === "import-statement" && !item.external).map((item) => toUrl(item.path)),
      styles: routes[id]?.styles ?? [],
    };
  }
  return routes;
}

export async function writeManifest(manifest, outDir) {
  await writeFile(path.join(outDir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}
