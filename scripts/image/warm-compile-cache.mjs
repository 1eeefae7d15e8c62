#!/usr/bin/env node
// Fills Node's module compile cache (V8 code cache on disk, Node 22.1+) for the production
// server: the image ships it, so a container's first start loads the server's compiled code
// instead of parsing and compiling ~3 MB of JavaScript, most of start-up with Sentry on
// (docs/decisions/0006-compile-cache-per-uid.md). The server runs once with a DSN (so the Sentry SDK and the tunnel load too)
// until /readyz answers, then stops; Node writes the cache as it exits. The cache is keyed by
// Node version and each file's path and contents, so it must be made with the image's Node,
// for the files at the paths the image runs them from.
//   usage: node scripts/image/warm-compile-cache.mjs <cache dir> [build dir, default dist]
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { serverArgs } from "../server-command.mjs";

const READY_TIMEOUT_MS = 30_000;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** Starts `<root>/<outRel>/server` once with `node`, compile cache in `dir`, and stops it once ready. */
export async function warmCompileCache({ dir, node = process.execPath, root = process.cwd(), outRel = "dist" }) {
  const port = await freePort();
  const spoolDir = mkdtempSync(path.join(tmpdir(), "outpost-warm-spool-"));
  const child = spawn(node, serverArgs(`./${outRel}`), {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_COMPILE_CACHE: dir,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      METRICS_PORT: "0",
      LOG_LEVEL: "warn",
      // Never contacted: nothing is reported while warming.
      SENTRY_DSN: "http://warm@127.0.0.1:9/1",
      SENTRY_TUNNEL_SPOOL_DIR: spoolDir,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  try {
    for (const deadline = Date.now() + READY_TIMEOUT_MS; ; await sleep(20)) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before it was ready`);
      if (Date.now() > deadline) throw new Error(`the server was not ready within ${READY_TIMEOUT_MS} ms`);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then((response) => response.ok, () => false);
      if (ready) break;
    }
    child.kill("SIGTERM");
    const { code, signal } = await exited;
    if (code !== 0) throw new Error(`the server stopped with ${code ?? signal}, so the cache may be incomplete`);
  } finally {
    child.kill("SIGKILL");
    rmSync(spoolDir, { recursive: true, force: true });
  }
  const files = readdirSync(dir, { recursive: true }).length;
  if (files === 0) throw new Error(`no compile cache written to ${dir} (Node ${process.version} before 22.1 has none)`);
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, outRel = "dist"] = process.argv.slice(2);
  if (!dir) throw new Error("usage: node scripts/image/warm-compile-cache.mjs <cache dir> [build dir]");
  const files = await warmCompileCache({ dir: path.resolve(dir), outRel });
  console.log(`compile cache: ${files} entries in ${dir}`);
}
