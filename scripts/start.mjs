#!/usr/bin/env node
// `npm start`: builds when there is no build yet or its sources changed since, then runs the
// server as production does. Containers run the node command below directly (npm would be one
// more process and report a drained SIGTERM as an interrupt), on the build the image made.
import { spawn, spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { staleBuildReason } from "./build/freshness.mjs";
import { serverArgs } from "./server-command.mjs";

const root = path.resolve(import.meta.dirname, "..");
const stale = staleBuildReason(root, path.join(root, "dist"));
if (stale) {
  console.log(`npm start: building first (${stale})`);
  const build = spawnSync(process.execPath, [path.join(root, "scripts", "build.mjs")], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const server = spawn(
  process.execPath,
  serverArgs(),
  // React and other packages choose their production build from NODE_ENV, read as they load: the
  // config's own default ("production") comes too late for them.
  { cwd: root, stdio: "inherit", env: { ...process.env, NODE_ENV: process.env.NODE_ENV || "production" } },
);
// Passed on, so a signal sent to npm start alone drains the server too. A Ctrl-C reaches both
// processes (the terminal signals the whole group); the server ignores the copy that arrives
// while it drains, and this process, which has a handler, stays until the server has exited.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
// A server ended by a signal exits 128 + its number, as a shell reports it.
server.on("exit", (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0)));
