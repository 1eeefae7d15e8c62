// The registration calls React Fast Refresh needs, added to the dev client build's .tsx/.jsx
// files by oxc-transform (TypeScript and JSX compiled on the way; esbuild bundles the result).
// oxc over Babel's react-refresh plugin and SWC: it loads and transforms faster, its native
// package is smaller and it has no install script (docs/decisions/0007-oxc-for-fast-refresh.md). JSX goes
// to react/jsx-runtime as esbuild's did: React 19 ignores jsxDEV's source locations, and their
// larger source maps made every rebuild slower.
import { readFileSync } from "node:fs";
import path from "node:path";
import { init, parse } from "es-module-lexer";
import { transformSync } from "oxc-transform";

await init();

/**
 * The esbuild plugin, and what it learnt of each project module it compiled: whether it is a
 * refresh boundary (every export is a component it registered), which a changed module must be
 * to be swapped in place, and else which of its exports are not components.
 * @param {{ root: string, runtime: string }} options `runtime`: the absolute path of
 *   src/client/dev/refresh-runtime.ts, which the vendor plugin maps to its built URL
 */
export function refreshTransform({ root, runtime }) {
  /** @type {Map<string, { source: string, result: import("esbuild").OnLoadResult, boundary: boolean, otherExports: string[] }>} */
  const modules = new Map();
  const plugin = {
    name: "dev-react-refresh",
    setup(build) {
      // Synchronous reads: a few small files, and no round trip through libuv's busy thread pool.
      build.onLoad({ filter: /\.[jt]sx$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const id = path.relative(root, args.path).split(path.sep).join("/");
        const source = readFileSync(args.path, "utf8");
        const known = modules.get(id);
        if (known?.source === source) return known.result;
        const compiled = compileWithRefresh({ id, file: args.path, source, runtime });
        // A syntax error: esbuild reads the source itself and reports it in its own words.
        if (!compiled) return { contents: source, loader: path.extname(args.path).slice(1) };
        const entry = { source, ...compiled };
        modules.set(id, entry);
        return entry.result;
      });
    },
  };
  return {
    plugin,
    /** @param {string} id a project-relative path */
    isBoundary: (id) => modules.get(id)?.boundary ?? false,
    /** @param {string} id @returns {string[] | null} its exports other than components; null if not compiled here */
    otherExports: (id) => modules.get(id)?.otherExports ?? null,
  };
}

/**
 * One module compiled for the browser with its registration calls; null on a syntax error.
 * @param {{ id: string, file: string, source: string, runtime: string }} module
 */
export function compileWithRefresh({ id, file, source, runtime }) {
  const out = transformSync(file, source, {
    sourcemap: true,
    jsx: { runtime: "automatic", development: false, refresh: true },
  });
  if (out.errors.length > 0) return null;
  const registered = new Set([...out.code.matchAll(/\$RefreshReg\$\(\w+, "([^"]+)"\)/g)].map((match) => match[1]));
  const [, exported] = parse(out.code);
  const otherExports = exported.filter((item) => !item.typeOnly && !registered.has(item.localName)).map((item) => item.name);
  const boundary = exported.length > 0 && otherExports.length === 0 && exported.every((item) => !item.typeOnly);
  if (!/\$Refresh(Reg|Sig)\$/.test(out.code)) return { result: withMap(out.code, out.map), boundary, otherExports };
  // One line ahead of oxc's output, so its source map moves down one line (";").
  const prelude =
    `import * as __refresh from ${JSON.stringify(runtime)}; ` +
    `const $RefreshReg$ = __refresh.registerIn(${JSON.stringify(id)}), $RefreshSig$ = __refresh.createSignature;\n`;
  const map = out.map && { ...out.map, mappings: `;${out.map.mappings}` };
  return { result: withMap(prelude + out.code, map), boundary, otherExports };
}

/** esbuild chains an inline input source map, so stack traces and the debugger show the .tsx. */
function withMap(code, map) {
  const comment = map ? `\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString("base64")}` : "";
  return { contents: code + comment, loader: "js" };
}
