// `npm run check:cycles [folder]`: refuses import cycles in a source tree (src/ by default),
// between modules and between folders, printing each with the imports that make it; exit 1 if any.
import { statSync } from "node:fs";
import path from "node:path";
import { findImportCycles, formatCycles } from "./cycles/cycle-report.mjs";
import { importEdges } from "./cycles/import-edges.mjs";

const folder = process.argv[2] ?? "src";
const root = path.resolve(folder);
if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
  console.error(`check:cycles: ${folder} is not a folder`);
  process.exit(2);
}

const edges = await importEdges(root);
const cycles = findImportCycles(edges);
if (cycles.modules.length === 0 && cycles.folders.length === 0) {
  console.log(`check:cycles: no module or folder cycle in ${folder}`);
} else {
  console.error(`check:cycles: import cycles in ${folder}\n${formatCycles(cycles)}`);
  process.exitCode = 1;
}
