#!/usr/bin/env node
// `npm run dev`: builds client and server into .dev-build/, and on every saved change rebuilds
// the halves that file is part of and restarts the server once, from a warm standby
// (scripts/dev/server.mjs). Open pages apply each rebuild through the server's event stream
// (src/server/dev/update-stream.ts): component, route module and CSS changes in place with
// React Fast Refresh before the restart, loader data re-fetched after it, anything else by a
// reload whose reason the log gives (scripts/dev/refresh/). A broken build keeps the old
// server and shows its errors on the page.
import { mkdir, rm, symlink } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";
import { manifestFromMetafile, writeManifest } from "./build/manifest.mjs";
import { DIAGNOSTICS_ROUTES } from "./build/app-routes.mjs";
import { APP_DIR, ROOT, styleOptions } from "./build/options.mjs";
import { devClientOptions, devServerOptions, projectInputs, startupPackages } from "./dev/build.mjs";
import { devStylesheets } from "./dev/styles.mjs";
import { devServer } from "./dev/server.mjs";
import { chunkAliases } from "./dev/refresh/chunk-aliases.mjs";
import { hotUpdates } from "./dev/refresh/hot-updates.mjs";
import { buildProblems } from "./dev/refresh/problems.mjs";
import { refreshTransform } from "./dev/refresh/transform.mjs";
import { buildVendor, REFRESH_RUNTIME } from "./dev/vendor.mjs";
import { watchFolders } from "./dev/watch.mjs";

const outDir = path.join(ROOT, ".dev-build");
const port = process.env.PORT ?? "3000";
// Loopback unless HOST says otherwise: a dev server shows stack traces and diagnostic pages,
// which the local network should not see (production's default, 0.0.0.0, suits a container).
const env = {
  NODE_ENV: "development",
  ENABLE_DIAGNOSTIC_ROUTES: "true",
  ...process.env,
  HOST: process.env.HOST || "127.0.0.1",
  METRICS_HOST: process.env.METRICS_HOST || "127.0.0.1",
  PORT: port,
};
// Where a browser on this machine reaches the server (any interface includes loopback).
const displayHost = ["0.0.0.0", "::"].includes(env.HOST) ? "localhost" : env.HOST.includes(":") ? `[${env.HOST}]` : env.HOST;
const SOURCE = /\.(m?[jt]sx?|css|json)$/;

await rm(outDir, { recursive: true, force: true }); // a previous session's outputs
// The app's public files are served from the sources (a file added later needs a restart).
const publicDir = path.resolve(ROOT, APP_DIR, "public");
if (existsSync(publicDir)) {
  await mkdir(outDir, { recursive: true });
  await symlink(publicDir, path.join(outDir, "public"));
}
const routeIds = new Map(); // a route module's file → its id in the route table, as last built
// One stylesheet transform for the session, as in production: both halves' CSS Module class names
// and the stylesheets come from it.
const styles = styleOptions({ production: false });
const stylesheets = devStylesheets({ root: ROOT, outDir, styles });
const clientBase = devClientOptions(
  outDir,
  env,
  (modules) => {
    routeIds.clear();
    for (const module of modules) routeIds.set(module.relative, module.id);
  },
  styles,
);
// React's vendor build (~250 ms) runs while the server half builds and its standby starts.
const vendorBuilt = buildVendor({ root: ROOT, base: clientBase });
let vendor;
const refresh = refreshTransform({ root: ROOT, runtime: path.join(ROOT, REFRESH_RUNTIME) });
const aliases = chunkAliases(outDir);
// One build id for the session: open pages keep up with rebuilds through their event stream,
// so the router's data requests must not take each rebuild for a deploy and reload the page.
const sessionBuildId = `development-${Date.now().toString(36)}`;
const halves = {
  client: {
    context: null, // once the vendor build has made its plugin (see the first build below)
    /** The stylesheets, then the manifest; returns what the half was made from and wrote besides its metafile's. */
    afterBuild: async (result) => {
      const built = await stylesheets.build(result.metafile);
      const routeModules = new Map([...routeIds].map(([relative, id]) => [id, relative]));
      const manifest = manifestFromMetafile(result.metafile, { outDir, serveSourceMaps: true, routeModules, stylesheets: built });
      halves.client.styles = built.outputs;
      halves.client.files = { ...manifest.files, ...vendor.files };
      Object.assign(halves.client.files, aliases(result.metafile, halves.client.files));
      await writeManifest({ ...manifest, buildId: sessionBuildId, files: halves.client.files }, outDir);
      return { inputs: stylesheets.inputs(), outputs: Object.keys(built.metafile.outputs) };
    },
  },
  server: { context: await esbuild.context(devServerOptions(outDir, { transform: styles.transform })) },
};
for (const half of Object.values(halves)) {
  Object.assign(half, { inputs: new Set(), errorFiles: [], broken: true, written: new Set() });
}

const server = devServer({ root: ROOT, serverDir: path.join(outDir, "server"), env, port });
const modules = {
  isBoundary: refresh.isBoundary,
  otherExports: refresh.otherExports,
  routeIdOf: (file) => routeIds.get(file),
  routeTables: [`${APP_DIR}/routes.ts`, DIAGNOSTICS_ROUTES],
};
const hot = hotUpdates({ outDir, modules, server });
const watcher = watchFolders(ROOT, onChange);

/**
 * Rebuilds the named halves; true when every half is now built. The client first, on its own:
 * open pages wait for it (`afterClient` sends them its part and resolves once they have applied
 * it), and on two cores the halves built side by side took about twice as long each.
 */
async function build(names, afterClient = () => {}) {
  const problems = [];
  const rebuild = async (name) => {
    const half = halves[name];
    try {
      // A stylesheet's save that leaves the browser's scripts as they are skips their build (~150 ms).
      const stylesOnly = name === "client" && !half.broken && (await stylesheets.scriptsUnchanged(half.metafile));
      const result = stylesOnly ? { metafile: half.metafile } : await half.context.rebuild();
      const more = (await half.afterBuild?.(result)) ?? { inputs: [], outputs: [] };
      const outputs = [...Object.keys(result.metafile.outputs), ...more.outputs];
      Object.assign(half, { inputs: new Set([...projectInputs(result.metafile), ...more.inputs]), metafile: result.metafile, outputs });
      for (const output of outputs) half.written.add(output);
      Object.assign(half, { errorFiles: [], broken: false });
    } catch (error) {
      // esbuild has printed its errors; watch where they are, should that be a new folder.
      if (!error.errors) console.error(error);
      const files = (error.errors ?? []).map((message) => message.location?.file).filter(Boolean);
      Object.assign(half, { errorFiles: files, broken: true });
      problems.push(...buildProblems(error, ROOT));
    }
  };
  if (names.includes("client")) {
    await rebuild("client");
    // The pages' fetch and re-render get the CPU before the server build takes both cores.
    if (!halves.client.broken) await Promise.race([afterClient(), new Promise((resolve) => setTimeout(resolve, 100))]);
  }
  if (names.includes("server")) await rebuild("server");
  const halvesList = Object.values(halves);
  const built = halvesList.every((half) => !half.broken);
  watcher.update(halvesList.flatMap((half) => [...half.inputs, ...half.errorFiles]), { keepNew: !built });
  // Open pages show them (the running server is the last good build's); both halves often
  // report the same one.
  const unique = [...new Map(problems.map((problem) => [JSON.stringify(problem), problem])).values()];
  if (unique.length > 0) await server.tell({ type: "outpost-dev:problems", problems: unique });
  return built;
}

/** The halves a change concerns: those it is an input of, and broken ones on any source file. */
function halvesFor(files) {
  return Object.keys(halves).filter((name) => {
    const half = halves[name];
    return [...files].some((file) => half.inputs.has(file) || file.endsWith("/*") || (half.broken && SOURCE.test(file)));
  });
}

/** What the next standby imports ahead (see startupPackages). */
const preload = () => startupPackages(halves.server.metafile, { sentry: Boolean(env.SENTRY_DSN) });

async function restart(since, files = []) {
  const rebuiltIn = Math.round(performance.now() - since);
  const ready = await server.restart(preload(), await hot.beforeRestart(files, halves));
  const readyIn = Math.round(performance.now() - since);
  if (!ready) return console.error("[dev] the server did not start (see above); save a file to try again");
  const cause = files.length === 0 ? "" : ` (${files.slice(0, 3).join(", ")}${files.length > 3 ? ", …" : ""})`;
  console.log(`[dev] rebuilt in ${rebuiltIn} ms, ready in ${readyIn} ms${cause}: http://${displayHost}:${port}/`);
  await prune();
}

/** esbuild never deletes: outputs that content-hashed names made stale go once unused. */
async function prune() {
  for (const half of Object.values(halves)) {
    const current = new Set(half.outputs);
    const stale = [...half.written].filter((output) => !current.has(output));
    await Promise.all(stale.map((output) => rm(path.join(ROOT, output), { force: true })));
    half.written = current;
  }
}

// One rebuild at a time; changes saved meanwhile are built next, and the server restarts once
// the last of them is built.
let pending = null;
let running = false;
let unserved = null; // when the first change not yet served was saved, and its files
let unservedFiles = new Set();
function onChange(changed, since) {
  // CSS Modules' declarations are the dev build's own output (for TypeScript): no build reads them.
  const files = new Set([...changed].filter((file) => !file.endsWith(".d.css.ts")));
  if (files.size === 0) return;
  stylesheets.saved(files);
  if (pending) for (const file of files) pending.files.add(file);
  else pending = { files, since };
  if (!running) void loop();
}

async function loop() {
  running = true;
  while (pending) {
    const { files, since } = pending;
    pending = null;
    const names = halvesFor(files);
    if (names.length > 0) {
      unserved ??= since;
      for (const file of files) if (SOURCE.test(file)) unservedFiles.add(file);
      // Unless a newer change is already waiting: its build brings this one's too.
      const sendClientPart = () => (pending ? Promise.resolve() : hot.sendClientPart([...unservedFiles], halves, unserved));
      if (!(await build(names, sendClientPart))) {
        unserved = null; // timed afresh from the fix
        hot.forget();
      }
    }
    if (!pending && unserved !== null) {
      await restart(unserved, [...unservedFiles]);
      unserved = null;
      unservedFiles = new Set();
    }
  }
  running = false;
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, async () => {
    watcher.close();
    await server.stop();
    await Promise.all([...Object.values(halves).map((half) => half.context?.dispose()), stylesheets.dispose()]);
    process.exit(0);
  });
}

// First build: the server half first, so the standby preloads while the client builds.
running = true;
const started = performance.now();
const serverBuilt = build(["server"]).then((built) => built && server.prepare(preload()));
vendor = await vendorBuilt;
halves.client.context = await esbuild.context({ ...clientBase, plugins: [...clientBase.plugins, vendor.plugin, refresh.plugin] });
await serverBuilt;
if (await build(["client"])) await restart(started);
running = false;
if (pending) void loop();
