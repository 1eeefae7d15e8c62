// `#outpost` re-exports every component and hook. esbuild splits code by which entry points
// reach a file, whatever of it is used: the root layout's `import { Link } from "#outpost"`
// made every module of the barrel reachable from the app's chunk, so Form, useFetcher,
// useBlocker… (used by a few lazily loaded pages) went into every page's initial JavaScript.
// Here each browser module's `import { … } from "#outpost"` gets a module of its own that
// re-exports only the names it imports, from the modules the barrel takes them from.
import { readFile } from "node:fs/promises";
import path from "node:path";

const NAMESPACE = "outpost-imports";
const BARREL_EXPORT = /export\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"([^"]+)";/g;
// `import { a, type B, c as d } from "#outpost"` (also over several lines); any other form
// (a namespace import, `export … from`) leaves its module importing the barrel.
const NAMED_IMPORT = /^import\s+(type\s+)?\{([^}]*)\}\s+from\s+["']#outpost["']/gm;
const OTHER_IMPORT = /(?:^|[\s;])(?:import|export)\b[^;]*?from\s+["']#outpost["']|import\s*\(\s*["']#outpost["']|^import\s+["']#outpost["']/m;

/** The names a `{ … }` list holds that are values: `type X` entries are erased from the bundle. */
function specifiers(list) {
  return list
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
}

/**
 * Which module of the barrel each name comes from, by reading its `export { … } from "…"`
 * statements; a barrel with any other kind of export is refused, since a name it gives would be missed.
 * @returns {Promise<Map<string, string>>} exported name -> the specifier, relative to the barrel
 */
export async function readBarrel(barrel) {
  const source = await readFile(barrel, "utf8");
  const sources = new Map();
  let statements = 0;
  for (const [, list, from] of source.matchAll(BARREL_EXPORT)) {
    statements += 1;
    for (const entry of specifiers(list)) {
      const [, name, alias] = /^(?:type\s+)?(\S+)(?:\s+as\s+(\S+))?$/.exec(entry) ?? [];
      if (name) sources.set(alias ?? name, { from, name });
    }
  }
  const exports = source.match(/^export\b/gm)?.length ?? 0;
  if (exports !== statements) {
    throw new Error(`${barrel}: ${exports - statements} export statement(s) are not \`export { … } from "…"\`, which the browser build's import trimming cannot follow`);
  }
  return sources;
}

/**
 * The value names a module imports from `#outpost`, or undefined where it imports it in a way
 * other than `import { … }` (it then keeps the whole barrel).
 * @returns {string[] | undefined} entries as written (`a`, `a as b`), types left out
 */
export function importedNames(source) {
  const withoutNamed = source.replace(NAMED_IMPORT, "");
  if (OTHER_IMPORT.test(withoutNamed)) return undefined;
  const names = [];
  for (const [, typeOnly, list] of source.matchAll(NAMED_IMPORT)) {
    if (typeOnly) continue;
    for (const entry of specifiers(list)) if (!entry.startsWith("type ")) names.push(entry);
  }
  return names;
}

/** @param {{ barrel: string }} options barrel: the absolute path `#outpost` stands for */
export function outpostImportsPlugin({ barrel }) {
  return {
    name: "outpost-imports",
    setup(build) {
      let exported;
      build.onStart(() => {
        exported = readBarrel(barrel);
      });
      build.onResolve({ filter: /^#outpost$/ }, async (args) => {
        if (args.namespace !== "file" || args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const names = importedNames(await readFile(args.importer, "utf8"));
        const sources = await exported;
        if (!names || names.some((entry) => !sources.has(entry.split(/\s+as\s+/)[0]))) return undefined;
        // One module per set of names, so modules importing the same names share it.
        return { path: [...new Set(names.map((entry) => entry.split(/\s+as\s+/)[0]))].sort().join(",") || "nothing", namespace: NAMESPACE };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, async (args) => {
        const sources = await exported;
        const names = args.path.split(",").filter((name) => sources.has(name));
        const contents = names.map((name) => {
          const { from, name: original } = sources.get(name);
          return `export { ${original === name ? name : `${original} as ${name}`} } from ${JSON.stringify(from)};`;
        });
        return { contents: contents.join("\n"), loader: "js", resolveDir: path.dirname(barrel), watchFiles: [barrel] };
      });
    },
  };
}
