// Writes a generated file, or with --check only compares it (exit 1 when out of date), so CI
// catches a generated file edited by hand or a source changed without regenerating.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export function writeGenerated(relativePath, text, { script, source }) {
  const target = path.join(ROOT, relativePath);
  if (!process.argv.includes("--check")) {
    writeFileSync(target, text);
    console.log(`wrote ${relativePath}`);
    return;
  }
  let current = "";
  try {
    current = readFileSync(target, "utf8");
  } catch {}
  if (current !== text) {
    console.error(`${relativePath} is out of date with ${source}: run node ${script}`);
    process.exit(1);
  }
  console.log(`${relativePath} matches ${source}`);
}
