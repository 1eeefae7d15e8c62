// The app's public folder at build: the files the server serves copied beside it (no links, no dotfiles but .well-known/),
// after the same clash check the server makes at start (src/server/public/public-shadowing.ts):
// a file that would hide a route, the data endpoint, /assets, a health probe or the tunnel stops the build.
import { copyFile, mkdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";
import { loadAppConfig } from "./app-routes.mjs";
import { APP_DIR, ASSET_PREFIX, ROOT } from "./options.mjs";

/** The server's own listing and check, bundled from its sources, so build and start cannot disagree. */
async function loadCheck() {
  const result = await esbuild.build({
    stdin: {
      contents: [
        'export { listPublicFiles } from "./src/server/public/public-listing.ts";',
        'export { checkPublicFiles } from "./src/server/public/public-shadowing.ts";',
        'export { RouteTable } from "./src/shared/routing/route-table.ts";',
        'export { DEFAULT_TUNNEL_PATH } from "./src/server/tunnel/defaults.ts";',
      ].join("\n"),
      resolveDir: ROOT,
      loader: "ts",
    },
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    logLevel: "silent",
  });
  return import(`data:text/javascript;base64,${Buffer.from(result.outputFiles[0].text).toString("base64")}`);
}

/** Checks the public folder against the app's paths, then copies what the server may serve into `outDir/public`. */
export async function copyPublicFiles(outDir) {
  const publicDir = path.resolve(ROOT, APP_DIR, "public");
  if (!existsSync(publicDir)) return;
  const [{ listPublicFiles, checkPublicFiles, RouteTable, DEFAULT_TUNNEL_PATH }, { config }] = await Promise.all([loadCheck(), loadAppConfig(ROOT, APP_DIR)]);
  const listing = listPublicFiles(publicDir);
  // The tunnel's path is the start's to know; the build checks the one set now, or the default.
  const tunnelPath = process.env.SENTRY_TUNNEL_PATH || DEFAULT_TUNNEL_PATH;
  checkPublicFiles(listing.files.keys(), new RouteTable(config), { assetPrefix: ASSET_PREFIX, tunnelPath }, (message) =>
    console.warn(`warning: ${message}`),
  );
  // Exactly the files the server will serve: no links, no dotfiles but .well-known/.
  for (const relative of listing.files.values()) {
    const target = path.join(outDir, "public", relative);
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(path.join(listing.root, relative), target);
  }
}
