import path from "node:path";
import * as esbuild from "esbuild";
import { appRoutesPlugin } from "../../build/app-routes.mjs";
import { APP_DIR } from "../../build/options.mjs";
import { BENCH_DIR, OUT, ROOT } from "./proc.mjs";

/** Bundles the floor's React tree from the app's sources, the way the server build does. */
export async function buildFloorTree() {
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [path.join(BENCH_DIR, "floor-ssr-tree.mjs")],
    outfile: path.join(OUT, "floor/tree.mjs"),
    bundle: true,
    packages: "external",
    format: "esm",
    platform: "node",
    target: "node20.19",
    jsx: "automatic",
    plugins: [appRoutesPlugin({ root: ROOT, appDir: APP_DIR, target: "server" })],
    logLevel: "warning",
  });
}
