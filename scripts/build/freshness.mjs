// Whether a production build is older than what it is built from, for `npm start`: after an
// edit it must not serve the old build without a word.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

/** What a build is made from, relative to the repo: folders are walked, missing ones skipped. */
export const BUILD_INPUTS = [
  "src",
  "scripts/build",
  "scripts/build.mjs",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "postcss.config.mjs",
  "postcss.config.js",
  "postcss.config.cjs",
];
/** What a build writes among its inputs (CSS Modules' declarations): never a reason to build again. */
const BUILD_WRITTEN = /\.d\.css\.ts$/;

/**
 * Why the build in `outDir` cannot be served as it is, or undefined when it is up to date:
 * no build yet, or the newest input (named) changed after the build was written. `inputs`
 * adds to BUILD_INPUTS for an app built from outside src/ (the tests' fixture app).
 */
export function staleBuildReason(root, outDir, inputs = BUILD_INPUTS) {
  const built = mtime(path.join(outDir, "manifest.json"));
  if (built === undefined) return "no build yet";
  const newest = newestInput(root, inputs);
  if (newest && newest.mtimeMs > built) return `${newest.file} changed after the build`;
  return undefined;
}

function newestInput(root, inputs) {
  let newest;
  const visit = (file) => {
    let stat;
    try {
      stat = statSync(path.join(root, file));
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path.join(root, file))) visit(path.join(file, entry));
    } else if (!BUILD_WRITTEN.test(file) && (!newest || stat.mtimeMs > newest.mtimeMs)) {
      newest = { file, mtimeMs: stat.mtimeMs };
    }
  };
  for (const input of inputs) visit(input);
  return newest;
}

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}
