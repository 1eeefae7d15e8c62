// A public file at a URL that a route or the platform answers would be dead or would hide a page
// (docs/guides/pages.md, "Public files"): the build refuses it, as the server does at start.
import path from "node:path";
import * as esbuild from "esbuild";
import { DIAGNOSTICS_ROUTES } from "./app-routes.mjs";

/** Throws, naming each clash (and warns of a file hiding one value of a route with parameters), when a file in `publicDir` would hide or be hidden by something else. */
export async function checkPublicFolder(root, appDir, publicDir) {
  const contents = [
    'export { listPublicFiles } from "./src/server/public/public-listing.ts";',
    'export { publicFileConflicts } from "./src/server/public/public-conflicts.ts";',
    'export { RouteTable } from "./src/shared/routing/route-table.ts";',
    `export { default as config } from ${JSON.stringify(path.resolve(root, appDir, "routes.ts"))};`,
    `export { withDiagnostics } from ${JSON.stringify(path.resolve(root, DIAGNOSTICS_ROUTES))};`,
  ].join("\n");
  const result = await esbuild.build({
    stdin: { contents, resolveDir: root, loader: "ts" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    logLevel: "silent",
  });
  const check = await import(`data:text/javascript;base64,${Buffer.from(result.outputFiles[0].text).toString("base64")}`);
  // Every route counts here, the diagnostics ones too: the same build runs with them on or off.
  const { errors, warnings } = check.publicFileConflicts(check.listPublicFiles(publicDir).keys(), new check.RouteTable(check.withDiagnostics(check.config)), {
    tunnelPath: process.env.SENTRY_TUNNEL_PATH || "/monitoring",
    diagnostics: true,
  });
  for (const warning of warnings) console.warn(`warning: ${warning}`);
  if (errors.length > 0) throw new Error(`${path.relative(root, publicDir)} clashes:\n  ${errors.join("\n  ")}`);
}
