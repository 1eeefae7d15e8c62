#!/usr/bin/env node
// `npm run dev`: esbuild watches client and server; every rebuild restarts the server, and
// the open page reloads itself (src/server/dev/reload-stream.ts). Output goes to .dev-build/.
import { spawn } from "node:child_process";
import path from "node:path";
import * as esbuild from "esbuild";
import { manifestFromMetafile, writeManifest } from "./build/manifest.mjs";
import { clientOptions, ROOT, serverOptions } from "./build/options.mjs";

const outDir = path.join(ROOT, ".dev-build");
const port = process.env.PORT ?? "3000";
let server = null;
let changeStarted = performance.now();
const pending = new Set(["client", "server"]);

/** esbuild plugin: reports each rebuild and restarts the server once both halves are built. */
function restartOnRebuild(name, afterBuild) {
  return {
    name: `restart-on-${name}`,
    setup(build) {
      build.onStart(() => {
        if (pending.size === 0 && restartTimer === null) changeStarted = performance.now();
        pending.add(name);
      });
      build.onEnd(async (result) => {
        if (result.errors.length > 0) return; // esbuild has printed them; keep the old server
        await afterBuild?.(result);
        pending.delete(name);
        // The other half may start rebuilding a moment later for the same change: wait a
        // beat so one change means one restart, with both halves fresh.
        if (pending.size === 0) scheduleRestart();
      });
    },
  };
}

let restartTimer = null;
let restarting = Promise.resolve();
function scheduleRestart() {
  clearTimeout(restartTimer);
  restartTimer = setTimeout(() => {
    restartTimer = null;
    // One restart at a time, or two servers would race for the port.
    if (pending.size === 0) restarting = restarting.then(restart);
  }, 30);
}

async function restart() {
  const rebuiltIn = Math.round(performance.now() - changeStarted);
  if (server) {
    // SIGKILL, not a drain: the open reload stream would hold a graceful drain for its whole deadline.
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGKILL");
    await exited;
  }
  server = spawn(
    process.execPath,
    ["--enable-source-maps", "--import", "./.dev-build/server/instrument.js", "./.dev-build/server/index.js"],
    {
      cwd: ROOT,
      stdio: "inherit",
      env: { NODE_ENV: "development", ENABLE_DIAGNOSTIC_ROUTES: "true", ...process.env, PORT: port },
    },
  );
  await untilReady();
  console.log(`[dev] rebuilt in ${rebuiltIn} ms, ready in ${Math.round(performance.now() - changeStarted)} ms: http://localhost:${port}/`);
}

async function untilReady() {
  for (let attempt = 0; attempt < 500; attempt++) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (response.ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const clientBase = clientOptions({ outDir, production: false });
const client = await esbuild.context({
  ...clientBase,
  entryNames: "[name]",
  chunkNames: "chunks/[name]-[hash]",
  plugins: [
    restartOnRebuild("client", (result) =>
      writeManifest(manifestFromMetafile(result.metafile, { outDir, serveSourceMaps: true }), outDir),
    ),
  ],
});
const serverBuild = await esbuild.context({
  ...serverOptions({ outDir, buildId: "development" }),
  plugins: [restartOnRebuild("server")],
});
await Promise.all([client.watch(), serverBuild.watch()]);

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    server?.kill("SIGTERM");
    await Promise.all([client.dispose(), serverBuild.dispose()]);
    process.exit(0);
  });
}
