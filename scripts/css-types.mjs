#!/usr/bin/env node
// Writes the TypeScript declaration of every CSS Module under src/ and test/ (`npm run typecheck`
// runs it first, so a fresh clone typechecks before any build).
import path from "node:path";
import { findCssModules, writeModuleDeclaration } from "./build/css/module-types.mjs";
import { createStyleTransform } from "./build/css/style-transform.mjs";
import { ROOT } from "./build/options.mjs";

const transform = createStyleTransform({ root: ROOT, production: false });
let failed = 0;
for (const file of findCssModules([path.join(ROOT, "src"), path.join(ROOT, "test")])) {
  try {
    writeModuleDeclaration(file, (await transform.moduleClasses(file)).classes);
  } catch (error) {
    failed++;
    const at = error.cssLocation ? `${path.relative(ROOT, error.cssLocation.file)}:${error.cssLocation.line}: ` : `${path.relative(ROOT, file)}: `;
    console.error(`css-types: ${at}${error.message}`);
  }
}
if (failed > 0) process.exit(1);
