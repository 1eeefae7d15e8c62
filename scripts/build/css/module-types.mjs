// TypeScript declarations for CSS Modules, generated from the CSS: `Card.module.css` gets
// `Card.module.d.css.ts` beside it (read by TypeScript's allowArbitraryExtensions), so
// `styles.card` typechecks and a class the file lacks does not. Written by the build, the dev
// watcher and `npm run typecheck`; ignored by git.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CSS_MODULE } from "./css-modules.mjs";

export const declarationFile = (file) => file.replace(/\.css$/, ".d.css.ts");

export function moduleDeclaration(file, classes) {
  const members = Object.keys(classes)
    .sort()
    .map((name) => `  readonly ${JSON.stringify(name)}: string;`);
  return [
    `// Generated from ${path.basename(file)} by Outpost's build (npm run build, dev, typecheck): edit the CSS, not this.`,
    "declare const classes: {",
    ...members,
    "};",
    "export default classes;",
    "",
  ].join("\n");
}

/** Writes one module's declaration, unless it already says the same (no watcher woken for nothing). */
export function writeModuleDeclaration(file, classes) {
  const target = declarationFile(file);
  const text = moduleDeclaration(file, classes);
  let current;
  try {
    current = readFileSync(target, "utf8");
  } catch {}
  if (current !== text) writeFileSync(target, text);
}

/** Every CSS Module under `dirs` (absolute), but in node_modules, build outputs and dot-folders. */
export function findCssModules(dirs) {
  const found = [];
  const visit = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.name === "node_modules" || entry.name === "dist") continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (CSS_MODULE.test(entry.name)) found.push(full);
    }
  };
  for (const dir of dirs) visit(dir);
  return found.sort();
}
