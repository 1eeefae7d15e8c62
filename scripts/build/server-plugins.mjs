// esbuild plugins for the server build (serverOptions in options.mjs), all for start-up time.
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { decode, encode } from "@jridgewell/sourcemap-codec";
import { createRequire, isBuiltin } from "node:module";
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
 * One copy of each named package, the project's own (top-level) one, for every importer:
 * packages pinned to an older major otherwise bundle theirs too, and compiling each copy of
 * mime-types' mime-db costs start-up time (koa's accepts 1.x brings mime-types 2; accepts 2
 * itself moved to mime-types 3, the copy koa uses).
 */
export function dedupe({ root, packages }) {
  const resolveFromRoot = createRequire(path.join(root, "package.json")).resolve;
  const filter = new RegExp(`^(${packages.map((name) => name.replaceAll(".", "\\.")).join("|")})$`);
  return {
    name: "dedupe",
    setup(build) {
      build.onResolve({ filter }, (args) => ({ path: resolveFromRoot(args.path) }));
    },
  };
}

/**
 * A CommonJS package that runs when one of its exports is first used rather than when it is
 * required. Koa requires mime-types as it loads (through accepts, type-is and its response), and
 * mime-types ranks its 2,500 types into extension tables as it runs, a visible share of start-up
 * (docs/decisions/0016-start-up-loads-on-first-use.md), for functions that only static assets and plain-text answers
 * call; pages and JSON answers set their Content-Type themselves. The stand-in has the package's
 * export names (read here, at build time): its functions call through, its other exports are
 * getters, and either runs the package once.
 */
export function lazyRequire({ root, pkg }) {
  const namespace = `lazy-require-of-${pkg}`;
  const exported = createRequire(path.join(root, "package.json"))(pkg);
  const stand = Object.keys(exported).map((key) => {
    const name = JSON.stringify(key);
    return typeof exported[key] === "function"
      ? `exports[${name}] = (...args) => load()[${name}](...args);`
      : `Object.defineProperty(exports, ${name}, { enumerable: true, get: () => load()[${name}] });`;
  });
  return {
    name: "lazy-require",
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${pkg.replaceAll(".", "\\.")}$`) }, (args) => {
        // The stand-in's own require() reaches the package itself.
        if (args.kind !== "require-call" || args.namespace === namespace) return undefined;
        return { path: pkg, namespace, pluginData: { resolveDir: args.resolveDir } };
      });
      build.onLoad({ filter: /.*/, namespace }, (args) => ({
        contents: [`let loaded;`, `const load = () => (loaded ??= require(${JSON.stringify(pkg)}));`, ...stand].join("\n"),
        loader: "js",
        resolveDir: args.pluginData.resolveDir,
      }));
    },
  };
}

/**
 * `pkg` as imported by `importer` (a package loaded lazily) gets a copy of its own, with every
 * module that copy imports. Modules shared by a lazy chunk and start-up code land in a chunk
 * that start-up loads: koa-body's `import { z } from "zod"` keeps all of zod and its locales
 * (≈ 650 KB), which the config's zod/mini would otherwise share with it.
 */
export function ownCopy({ pkg, importer }) {
  const namespace = `own-copy-of-${pkg}`;
  const byImporter = new RegExp(`[\\\\/]node_modules[\\\\/]${importer.replaceAll(".", "\\.")}[\\\\/]`);
  return {
    name: "own-copy",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.[namespace]) return undefined;
        const inCopy = args.namespace === namespace || (args.path === pkg && byImporter.test(args.importer));
        if (!inCopy) return undefined;
        const { path: resolvedPath, namespace: resolvedNamespace, external, errors } = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { [namespace]: true },
        });
        if (errors.length > 0) return { errors };
        return resolvedNamespace === "file" && !external ? { path: resolvedPath, namespace } : { path: resolvedPath, namespace: resolvedNamespace, external };
      });
      build.onLoad({ filter: /.*/, namespace }, async (args) => ({
        contents: await readFile(args.path, "utf8"),
        loader: "js",
        resolveDir: path.dirname(args.path),
      }));
    },
  };
}

/**
 * Large JSON files of packages (mime-db's 200 KB) as `JSON.parse` of a string: V8 scans a string
 * literal and parses JSON far faster than it compiles the same data as an object literal
 * (which it does twice in a bundle: once to skip the lazy module, once to run it).
 */
export const largeJsonAsParse = {
  name: "large-json-as-parse",
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/].*\.json$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      if (text.length < 16 * 1024) return undefined;
      return { contents: `module.exports = JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(text)))});`, loader: "js" };
    });
  },
};

/**
 * Keeps the source maps' mappings for the project's own code only. Bundled packages would make
 * the maps megabytes of mappings, which Node 24 parses at start with --enable-source-maps
 * (≈ 200 ms). A package's code gets an unmapped segment instead, so its stack frames show the
 * bundle's line and column rather than a neighbouring file's. A chunk of packages only gets no
 * map at all, so Node does not even read one.
 */
const VIRTUAL_MODULE = /^[a-z][a-z0-9-]+:/;

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
              // A plugin's virtual module ("builtin-via-require:node:net") is no project code either:
              // counted as such, it kept the maps of the Sentry chunks (1.2 MB for Node to scan).
              const isVendor = map.sources.map(
                (source) => VIRTUAL_MODULE.test(source) || !isProjectCode(path.resolve(path.dirname(mapPath), source)),
              );
              if (!isVendor.some(Boolean)) return;
              if (isVendor.every(Boolean)) return dropSourceMap(mapPath);
              await writeFile(mapPath, JSON.stringify(usedSourcesOnly({ ...map, mappings: trimMappings(map.mappings, isVendor) })));
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

/**
 * The map with only the sources its mappings name, renumbered. Node resolves every listed source
 * to a URL as each module loads (Node 20: ≈ 1 ms per 100), and after trimMappings most are
 * packages no segment points to any more.
 */
export function usedSourcesOnly(map) {
  const lines = decode(map.mappings);
  const renumbered = new Map();
  for (const line of lines) for (const segment of line) if (segment.length > 1) renumbered.set(segment[1], 0);
  const used = [...renumbered.keys()].sort((a, b) => a - b);
  for (const [index, old] of used.entries()) renumbered.set(old, index);
  const mappings = encode(lines.map((line) => line.map((segment) => (segment.length > 1 ? [segment[0], renumbered.get(segment[1]), ...segment.slice(2)] : segment))));
  const pick = (list) => list && used.map((index) => list[index]);
  return { ...map, sources: pick(map.sources), ...(map.sourcesContent ? { sourcesContent: pick(map.sourcesContent) } : {}), mappings };
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
