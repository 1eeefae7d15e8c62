#!/usr/bin/env node
// The node_modules the production image needs: the server build bundles every package except
// SERVER_EXTERNALS (scripts/build/options.mjs), so only those that are production dependencies,
// and what they depend on, are copied from ./node_modules to <dest>/node_modules, nested
// folders and all, exactly as installed. usage: node scripts/image/runtime-modules.mjs <dest>
import { cpSync, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ROOT, SERVER_EXTERNALS } from "../build/options.mjs";

const dest = path.resolve(process.argv[2] ?? "");
if (!process.argv[2]) throw new Error("usage: node scripts/image/runtime-modules.mjs <dest>");

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));
const matches = (name, pattern) => (pattern.endsWith("/*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern);
const dependencies = Object.keys(readJson(path.join(ROOT, "package.json")).dependencies ?? {});
const roots = dependencies.filter((name) => SERVER_EXTERNALS.some((pattern) => matches(name, pattern)));

/** Where Node finds `name` when required from `dir`: the nearest node_modules above it. */
function locate(name, dir) {
  for (let at = dir; at.startsWith(ROOT); at = path.dirname(at)) {
    if (path.basename(at) === "node_modules") continue;
    const candidate = path.join(at, "node_modules", name);
    if (existsSync(path.join(candidate, "package.json"))) return candidate;
    if (at === ROOT) break;
  }
  return undefined;
}

// What a package needs only to install, and the parts of it the image needs at run time: the
// native addon is compiled by then, so its sources (sqlite3.c is 9 MB) and installer stay behind.
const INSTALL_ONLY = {
  "better-sqlite3": { dependencies: ["prebuild-install"], keep: ["package.json", "lib", "build/Release/better_sqlite3.node"] },
};

const copied = new Set();
const queue = roots.map((name) => ({ name, from: ROOT, optional: false }));
while (queue.length > 0) {
  const { name, from, optional } = queue.shift();
  const dir = locate(name, from);
  if (!dir) {
    if (optional) continue;
    throw new Error(`runtime-modules: ${name} (needed from ${path.relative(ROOT, from) || "."}) is not installed`);
  }
  if (copied.has(dir)) continue;
  copied.add(dir);
  // A package's own node_modules holds other packages: each is copied when it is needed.
  const own = path.join(dir, "node_modules");
  const pkg = readJson(path.join(dir, "package.json"));
  const trim = INSTALL_ONLY[pkg.name];
  const wanted = (src) => {
    if (src === own || src.startsWith(own + path.sep)) return false;
    if (!trim || src === dir) return true;
    const rel = path.relative(dir, src);
    return trim.keep.some((keep) => rel === keep || rel.startsWith(keep + path.sep) || keep.startsWith(rel + path.sep));
  };
  cpSync(dir, path.join(dest, path.relative(ROOT, dir)), { recursive: true, filter: wanted });
  for (const dep of Object.keys(pkg.dependencies ?? {})) {
    if (!trim?.dependencies.includes(dep)) queue.push({ name: dep, from: dir, optional: false });
  }
  for (const dep of Object.keys({ ...pkg.optionalDependencies, ...pkg.peerDependencies })) {
    queue.push({ name: dep, from: dir, optional: true });
  }
}
console.log(`runtime-modules: ${[...copied].map((dir) => path.relative(path.join(ROOT, "node_modules"), dir)).join(", ")}`);
