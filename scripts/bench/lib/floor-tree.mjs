import path from "node:path";
import * as esbuild from "esbuild";
import { appRoutesPlugin } from "../../build/app-routes.mjs";
import { APP_DIR } from "../../build/options.mjs";
import { BENCH_DIR, OUT, ROOT } from "./proc.mjs";

/**
 * Bundles the floor's React tree from an app's sources, the way the server build does, into
 * `out`/floor/tree.mjs beside that app's build (default: the product's app and bench build).
 */
export async function buildFloorTree({ appDir = APP_DIR, out = OUT } = {}) {
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [path.join(BENCH_DIR, "floor-ssr-tree.mjs")],
    outfile: path.join(out, "floor/tree.mjs"),
    bundle: true,
    packages: "external",
    format: "esm",
    platform: "node",
    target: "node20.19",
    jsx: "automatic",
    plugins: [appRoutesPlugin({ root: ROOT, appDir, target: "server" })],
    logLevel: "warning",
  });
}
