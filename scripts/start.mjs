#!/usr/bin/env node
// `npm start`: builds when no build exists yet, then runs the server as production does.
// Containers run the node command below directly (npm would swallow signals).
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
if (!existsSync(path.join(root, "dist", "manifest.json"))) {
  const build = spawnSync(process.execPath, [path.join(root, "scripts", "build.mjs")], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const server = spawn(
  process.execPath,
  ["--import", "./dist/server/instrument.js", "./dist/server/index.js"],
  { cwd: root, stdio: "inherit" },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
