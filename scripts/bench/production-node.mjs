#!/usr/bin/env node
// The Node version production runs (the Dockerfile's base image), for benchmarks that depend on
// the runtime, such as start-up. BENCH_PRODUCTION_NODE=/path/to/node uses that binary;
// otherwise the npm registry's node-linux-<arch> package of that version is fetched once into
// node_modules/.cache/outpost-node/. `node scripts/bench/production-node.mjs` fetches it ahead.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./lib/proc.mjs";

/** The x.y.z of the Dockerfile's first FROM (node:x.y.z-…). */
export function productionNodeVersion() {
  const from = /^FROM\s+(?:\S+\/)?node:(\d+\.\d+\.\d+)/m.exec(readFileSync(path.join(ROOT, "Dockerfile"), "utf8"));
  if (!from) throw new Error("the Dockerfile's base image is not node:x.y.z-…");
  return from[1];
}

/** { path, version } of the production Node binary, fetched if needed; undefined with a reason logged. */
export function productionNode({ fetch = true } = {}) {
  const version = productionNodeVersion();
  if (process.env.BENCH_PRODUCTION_NODE) return { path: process.env.BENCH_PRODUCTION_NODE, version: binaryVersion(process.env.BENCH_PRODUCTION_NODE) };
  if (process.version === `v${version}`) return { path: process.execPath, version };
  const dir = path.join(ROOT, "node_modules/.cache/outpost-node", version);
  const binary = path.join(dir, "package/bin/node");
  if (!existsSync(binary)) {
    if (!fetch) return undefined;
    const arch = { x64: "x64", arm64: "arm64" }[process.arch];
    try {
      if (!arch || process.platform !== "linux") throw new Error(`no node-linux package for ${process.platform}/${process.arch}`);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      console.log(`fetching node-linux-${arch}@${version} from the npm registry into ${path.relative(ROOT, dir)}/`);
      const tarball = execFileSync("npm", ["pack", "--silent", `node-linux-${arch}@${version}`], { cwd: dir, encoding: "utf8" }).trim();
      // The headers too: runtime-build.mjs compiles the native addon for this Node against them.
      execFileSync("tar", ["-xzf", tarball, "package/bin/node", "package/include"], { cwd: dir });
      rmSync(path.join(dir, tarball));
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      console.warn(`production Node ${version} unavailable: ${error.message.split("\n")[0]}`);
      return undefined;
    }
  }
  return { path: binary, version: binaryVersion(binary) };
}

function binaryVersion(binary) {
  return execFileSync(binary, ["--version"], { encoding: "utf8" }).trim().replace(/^v/, "");
}

if (import.meta.filename === process.argv[1]) {
  const node = productionNode();
  if (!node) process.exit(1);
  console.log(`${node.path} (Node ${node.version})`);
}
