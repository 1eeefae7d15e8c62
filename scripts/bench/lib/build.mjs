// Production builds for the benchmarks: `node scripts/build.mjs` in a child process, as
// `npm run build` runs it, with only the variables chosen here.
import { execFileSync } from "node:child_process";
import { OUT_REL, ROOT } from "./proc.mjs";

/**
 * Builds `appDir` (relative to `root`; default: the product's app) into `outRel`. `root`:
 * another checkout (the navigation group's baseline).
 */
export function buildProduction({ root = ROOT, outRel = OUT_REL, appDir } = {}) {
  execFileSync(process.execPath, ["scripts/build.mjs"], {
    cwd: root,
    env: { PATH: process.env.PATH, OUTPOST_OUT_DIR: outRel, ...(appDir ? { OUTPOST_APP_DIR: appDir } : {}) },
    stdio: "inherit",
  });
}
