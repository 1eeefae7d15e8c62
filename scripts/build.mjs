#!/usr/bin/env node
// Production build: client (minified, split, hashed) then server (packages bundled, except the
// few in SERVER_EXTERNALS: see scripts/build/options.mjs).
import { spawnSync } from "node:child_process";
import { cp, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";
import { manifestFromMetafile, writeManifest } from "./build/manifest.mjs";
import { loadAppConfig, routeModules } from "./build/app-routes.mjs";
import { writeModuleDeclaration } from "./build/css/module-types.mjs";
import { importedStylesheets } from "./build/css/route-styles.mjs";
import { classNameDisagreement } from "./build/css/style-imports-plugin.mjs";
import { buildStylesheets, CSS_SYNTAX_ERROR } from "./build/css/stylesheets.mjs";
import { APP_DIR, clientOptions, ROOT, serverOptions, styleOptions } from "./build/options.mjs";
import { checkPublicFolder } from "./build/public-check.mjs";
import { sentrySourceMapsPlugin } from "./build/sentry-sourcemaps.mjs";

const outDir = path.resolve(ROOT, process.env.OUTPOST_OUT_DIR ?? "dist");
// The built server imports its externals (react, react-dom, better-sqlite3) from the checkout's
// node_modules, found only from a folder inside it; the prerender step runs it.
const outDirInRoot = path.relative(ROOT, outDir);
if (outDirInRoot === "" || outDirInRoot === ".." || outDirInRoot.startsWith(`..${path.sep}`) || path.isAbsolute(outDirInRoot)) {
  console.error(`build: OUTPOST_OUT_DIR (${outDir}) must be a folder inside the checkout (${ROOT}), where the built server finds node_modules`);
  process.exit(1);
}
const BUILD_OUTPUTS = ["client", "server", "public", "prerendered", "manifest.json"];
const started = performance.now();

// The app's public files (robots.txt, favicon.ico, .well-known/), served at the site's root: none
// may clash with a route or a platform path. Checked before the old build is removed.
const publicDir = path.resolve(ROOT, APP_DIR, "public");
if (existsSync(publicDir)) await checkPublicFolder(ROOT, APP_DIR, publicDir);
// Only this build's own outputs are replaced: another build may sit inside it (the tests' fixture
// app in dist/fixture/) and be serving while this one is made.
for (const output of BUILD_OUTPUTS) await rm(path.join(outDir, output), { recursive: true, force: true });
/** esbuild has printed its errors (file, line, what to do): exit 1 without a stack trace on top of them. */
const failedBuild = (error) => {
  if (!Array.isArray(error?.errors)) throw error;
  console.error(`build failed: ${error.errors.length} error(s) above`);
  process.exit(1);
};
// One stylesheet transform for both builds: a CSS Module's class names come from it in each.
const clientStyles = styleOptions({ production: true });
const serverStyles = { transform: clientStyles.transform, classes: new Map() };
const clientBuild = clientOptions({ outDir, production: true, styles: clientStyles });
const client = await esbuild
  .build({ ...clientBuild, plugins: [...clientBuild.plugins, sentrySourceMapsPlugin({ release: process.env.SENTRY_RELEASE, outDir })] })
  .catch(failedBuild);
const stylesheets = await buildStylesheets({
  root: ROOT,
  assetsDir: path.join(outDir, "client", "assets"),
  files: importedStylesheets(client.metafile).map((input) => path.resolve(ROOT, input)),
  transform: clientStyles.transform,
  production: true,
}).catch(failedBuild);
// esbuild warned (file, line) and would ship the file with the rule dropped: a silent difference.
const cssSyntaxErrors = stylesheets.warnings.filter((warning) => warning.id === CSS_SYNTAX_ERROR).length;
if (cssSyntaxErrors > 0) {
  console.error(`build failed: ${cssSyntaxErrors} CSS syntax error(s) above`);
  process.exit(1);
}
for (const [file, classes] of clientStyles.classes) writeModuleDeclaration(file, classes);
const { config } = await loadAppConfig(ROOT, APP_DIR);
// Resource routes (a *.server.ts file named by the table) have no browser code and no stylesheets.
const pageModules = routeModules(ROOT, APP_DIR, config).filter((module) => !module.resource);
const routeSources = new Map(pageModules.map((module) => [module.id, module.relative]));
const manifest = manifestFromMetafile(client.metafile, { outDir, serveSourceMaps: false, routeModules: routeSources, stylesheets });
await writeManifest(manifest, outDir);
await esbuild.build(serverOptions({ outDir, buildId: manifest.buildId, styles: serverStyles })).catch(failedBuild);
// Both builds asked one transform, so this never fires unless that stops being true: a page whose
// server HTML names other classes than its stylesheet is unstyled without a word.
const disagreement = classNameDisagreement(serverStyles.classes, clientStyles.classes, ROOT);
if (disagreement) {
  await rm(path.join(outDir, "manifest.json"), { force: true });
  console.error(`build failed: ${disagreement}`);
  process.exit(1);
}
// The server bundles are ES modules. Said beside them, so wherever the build is placed Node need
// not detect each file's format from its syntax: a build under node_modules/ (the bench's) is
// outside the project's package.json, and detection cost ≈ 12 ms of start-up there.
await writeFile(path.join(outDir, "server", "package.json"), '{ "type": "module" }\n');
// Links are not copied, nor dot-names but .well-known/: the server would never serve them (.env, .gitkeep).
const servable = (source) =>
  path
    .relative(publicDir, source)
    .split(path.sep)
    .every((name, depth) => !name.startsWith(".") || (depth === 0 && name === ".well-known"));
if (existsSync(publicDir)) await cp(publicDir, path.join(outDir, "public"), { recursive: true, verbatimSymlinks: true, filter: servable });
// The pages that declare `prerender`, rendered by this build's own server into prerendered/. A page
// that cannot be (it read the request) fails the build; without manifest.json no server starts on it.
const prerender = spawnSync(process.execPath, [path.join(outDir, "server", "prerender.js")], { stdio: "inherit" });
if (prerender.status !== 0) {
  await rm(path.join(outDir, "manifest.json"), { force: true });
  console.error(`build failed: ${path.relative(ROOT, outDir)}/ has pages that could not be prerendered`);
  process.exit(1);
}

console.log(
  `built ${path.relative(ROOT, outDir)}/ (build ${manifest.buildId}) in ${Math.round(performance.now() - started)} ms`,
);
