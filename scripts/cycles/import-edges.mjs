// Every import between two modules of a source tree, read by dpdm: it resolves through the
// TypeScript config, so package.json "imports" aliases (#outpost…) land on their files.
import path from "node:path";
import dpdm from "dpdm";

/**
 * The import edges between modules under `root` (absolute), type-only and dynamic imports included,
 * as { from, to } paths relative to `cwd`. What dpdm cannot resolve to a file (esbuild's virtual
 * `outpost:…` modules) and what lies outside `root` (packages, node: built-ins) is left out.
 */
export async function importEdges(root, cwd = process.cwd()) {
  const tree = await dpdm.parseDependencyTree(["**/*.ts", "**/*.tsx"], { cwd: root, context: cwd });
  const inRoot = (file) => isInside(root, path.resolve(cwd, file));
  const edges = [];
  for (const [from, dependencies] of Object.entries(tree)) {
    if (!dependencies || !inRoot(from)) continue;
    for (const { id } of dependencies) {
      if (id !== null && tree[id] !== null && inRoot(id)) edges.push({ from: slashed(from), to: slashed(id) });
    }
  }
  return edges;
}

function isInside(parent, child) {
  const relative = path.relative(parent, child);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}

// Reported paths look the same on every platform.
const slashed = (file) => file.split(path.sep).join("/");
