// esbuild plugins for the server build (serverOptions in options.mjs), both for start-up time.
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { decode, encode } from "@jridgewell/sourcemap-codec";
import { isBuiltin } from "node:module";
import path from "node:path";

/**
 * Node built-ins imported from ESM are loaded through require() instead. An ESM import builds a
 * facade that reads every export once, and on Node 24 reading node:http's lazy WebSocket and
 * MessageEvent getters loads Node's internal undici: ≈ 30 ms of start-up for nothing.
 */
export const builtinsViaRequire = {
  name: "builtins-via-require",
  setup(build) {
    build.onResolve({ filter: /^[a-z_:/]+$/ }, (args) => {
      if (args.kind !== "import-statement" || !isBuiltin(args.path)) return undefined;
      return { path: args.path, namespace: "builtin-via-require" };
    });
    // CommonJS, so esbuild links named, default and namespace imports to its exports.
    build.onLoad({ filter: /.*/, namespace: "builtin-via-require" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: "js",
    }));
  },
};

/**
 * Keeps the source maps' mappings for the project's own code only. Bundled packages would make
 * the maps megabytes of mappings, which Node 24 parses at start with --enable-source-maps
 * (≈ 200 ms). A package's code gets an unmapped segment instead, so its stack frames show the
 * bundle's line and column rather than a neighbouring file's. A chunk of packages only gets no
 * map at all, so Node does not even read one.
 */
export function projectOnlySourceMaps({ root }) {
  // Outside the project counts too: esbuild names a symlinked node_modules by its real path.
  const isProjectCode = (file) => {
    const relative = path.relative(root, file);
    return !relative.startsWith("..") && !relative.split(path.sep).includes("node_modules");
  };
  return {
    name: "project-only-source-maps",
    setup(build) {
      build.onEnd(async (result) => {
        const { write, packages } = build.initialOptions;
        // Nothing to trim when no package is bundled (the dev build).
        if (result.errors.length > 0 || write === false || packages === "external") return;
        const dir = build.initialOptions.outdir;
        const files = await readdir(dir, { recursive: true });
        await Promise.all(
          files
            .filter((file) => file.endsWith(".js.map"))
            .map(async (file) => {
              const mapPath = path.join(dir, file);
              const map = JSON.parse(await readFile(mapPath, "utf8"));
              const isVendor = map.sources.map((source) => !isProjectCode(path.resolve(path.dirname(mapPath), source)));
              if (!isVendor.some(Boolean)) return;
              if (isVendor.every(Boolean)) return dropSourceMap(mapPath);
              map.mappings = trimMappings(map.mappings, isVendor);
              await writeFile(mapPath, JSON.stringify(map));
            }),
        );
      });
    },
  };
}

async function dropSourceMap(mapPath) {
  const jsPath = mapPath.slice(0, -".map".length);
  const js = await readFile(jsPath, "utf8");
  const comment = `//# sourceMappingURL=${path.basename(mapPath)}\n`;
  if (js.endsWith(comment)) await writeFile(jsPath, js.slice(0, -comment.length));
  await rm(mapPath);
}

/** Drops segments whose source is vendor code, marking where each vendor run starts. */
export function trimMappings(mappings, isVendor) {
  let mapped = false; // whether the last segment kept maps to a source
  const lines = decode(mappings).map((line) =>
    line.flatMap((segment) => {
      const keep = segment.length > 1 && !isVendor[segment[1]];
      if (!keep && !mapped) return [];
      mapped = keep;
      // A lone generated column: from here on, this line maps to nothing.
      return [keep ? segment : [segment[0]]];
    }),
  );
  return encode(lines);
}
