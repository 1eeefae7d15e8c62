// The bench build as another Node runs it. The spool's native addon (better-sqlite3) is compiled
// for one Node ABI, so a production Node of another ABI (Node 24 beside this machine's 20) gets
// a copy of the build with its own addon beside it: Node resolves better-sqlite3 from the
// nearest node_modules above the bundle. The addon is compiled once per ABI into
// `<bench build>-addons/`, by npm's own node-gyp run with that Node against its headers (the
// node-linux package that production-node.mjs fetches ships them), as the image's `npm ci` would.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { OUT, OUT_REL, ROOT } from "./lib/proc.mjs";

const ADDON = "better-sqlite3";

/** The bench build's directory (relative to the repo) for the Node binary `node`. */
export function buildFor(node) {
  const abi = execFileSync(node, ["-p", "process.versions.modules"], { encoding: "utf8" }).trim();
  if (abi === process.versions.modules) return OUT_REL;
  const addon = compiledAddon(node, abi);
  const outRel = `${OUT_REL}-abi${abi}`;
  const out = path.join(ROOT, outRel);
  rmSync(out, { recursive: true, force: true });
  cpSync(OUT, out, { recursive: true });
  mkdirSync(path.join(out, "node_modules"));
  symlinkSync(addon, path.join(out, "node_modules", ADDON), "dir");
  return outRel;
}

/** Whether `node` can load the addon compiled in `dir`. */
function loads(node, dir) {
  const binary = path.join(dir, "build/Release/better_sqlite3.node");
  if (!existsSync(binary)) return false;
  try {
    execFileSync(node, ["-e", `process.dlopen({ exports: {} }, ${JSON.stringify(binary)})`], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

function compiledAddon(node, abi) {
  const dir = path.join(`${OUT}-addons`, `${ADDON}-abi${abi}`);
  if (loads(node, dir)) return dir;
  const nodeDir = path.resolve(node, "../..");
  if (!existsSync(path.join(nodeDir, "include/node/node_version.h"))) {
    throw new Error(`no Node headers in ${nodeDir}/include to compile ${ADDON} for ${node} (delete its cache to fetch them)`);
  }
  const installed = realpathSync(path.join(ROOT, "node_modules", ADDON));
  rmSync(dir, { recursive: true, force: true });
  for (const part of ["package.json", "binding.gyp", "src", "deps", "lib"]) cpSync(path.join(installed, part), path.join(dir, part), { recursive: true });
  const nodeGyp = path.join(execFileSync("npm", ["root", "-g"], { encoding: "utf8" }).trim(), "npm/node_modules/node-gyp/bin/node-gyp.js");
  console.log(`compiling ${ADDON} for Node ABI ${abi} into ${path.relative(ROOT, dir)}/ (once; a few minutes) ...`);
  try {
    // Its log only when it fails: node-gyp reports every step on stderr.
    execFileSync(node, [nodeGyp, "rebuild", "--release", `--nodedir=${nodeDir}`], { cwd: dir, stdio: "pipe", env: gypEnv() });
    if (!loads(node, dir)) throw new Error(`the compiled ${ADDON} does not load in ${node}`);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${ADDON} did not compile for Node ABI ${abi}:\n${String(error.stderr ?? error.message).slice(-3000)}`);
  }
  return dir;
}

/**
 * The environment without npm's config variables: node-gyp lets npm_config_* override its
 * command line, so under `npm run bench` a user's `nodedir` in .npmrc would compile the addon
 * against this machine's Node instead.
 */
function gypEnv() {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name)));
}
