#!/usr/bin/env node
// `npm run test:production-node`: the whole test suite on the Node production runs (the
// Dockerfile's), beside `npm test` on this machine's. A copy of the checkout gets its own
// `npm ci` under that Node, so native addons are compiled for its ABI as the image's are.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { productionNode } from "./bench/production-node.mjs";

const root = path.resolve(import.meta.dirname, "..");
const node = productionNode();
if (!node) {
  console.error("test:production-node: production's Node could not be had (see the line above)");
  process.exit(1);
}
const nodeRoot = path.resolve(node.path, "../..");
const env = {
  ...process.env,
  PATH: `${path.dirname(node.path)}${path.delimiter}${process.env.PATH}`,
  // node-gyp compiles the addon against this Node's headers, whatever .npmrc says.
  npm_config_nodedir: nodeRoot,
};

const copy = mkdtempSync(path.join(os.tmpdir(), "outpost-production-node-"));
const cleanUp = () => rmSync(copy, { recursive: true, force: true });
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    cleanUp();
    process.exit(1);
  });
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: copy, env, stdio: "inherit" });
  return result.status ?? 1;
}

try {
  copyCheckout(root, copy);
  console.log(`test:production-node: Node ${node.version}, in ${copy}`);
  let status = run("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"]);
  if (status === 0) status = run("npm", ["test", ...process.argv.slice(2)]);
  process.exitCode = status;
} finally {
  cleanUp();
}

/** The files git tracks, and the untracked ones it does not ignore, as they are in the work tree. */
function copyCheckout(from, to) {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: from,
    encoding: "utf8",
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split("\0").filter(Boolean)) {
    mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    try {
      copyFileSync(path.join(from, file), path.join(to, file));
    } catch (error) {
      // A file deleted in the work tree but not yet in git's index.
      if (error.code !== "ENOENT") throw error;
    }
  }
}
