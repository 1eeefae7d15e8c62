// A page imports route chunks by the URLs its entry was built with (client navigation). After
// a route module changed, its old URL keeps serving the chunk's current file: without that, a
// route the page had not loaded yet would be a 404, and the router would reload the page.
import { assetUrl } from "../../build/manifest.mjs";
import { dynamicImportTargets } from "./update.mjs";

/** @param {string} outDir */
export function chunkAliases(outDir) {
  const urlsByEntry = new Map(); // a lazily imported module → every URL its chunk has had
  /**
   * The manifest's extra files for a build: each old URL → the current file.
   * @param {import("esbuild").Metafile} metafile @param {Record<string, string>} files the build's own
   */
  return (metafile, files) => {
    const aliases = {};
    for (const output of dynamicImportTargets(metafile)) {
      const entryPoint = metafile.outputs[output]?.entryPoint;
      if (!entryPoint) continue;
      const url = assetUrl(outDir, output);
      const urls = urlsByEntry.get(entryPoint) ?? new Set();
      urlsByEntry.set(entryPoint, urls.add(url));
      for (const old of urls) if (old !== url) aliases[old] = files[url];
    }
    return aliases;
  };
}
