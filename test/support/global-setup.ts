import { execFileSync } from "node:child_process";
import { FIXTURE_APP, FIXTURE_DIST } from "./paths";

/**
 * Builds once per test run: the production bundle (the tests exercise what ships), and the
 * fixture app (test/fixtures/app) on the same platform, for browser tests of navigation.
 */
export default function setup(): void {
  if (process.env.OUTPOST_SKIP_BUILD === "true") return;
  execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
  execFileSync(process.execPath, ["scripts/build.mjs"], {
    stdio: "inherit",
    env: { ...process.env, OUTPOST_APP_DIR: FIXTURE_APP, OUTPOST_OUT_DIR: FIXTURE_DIST },
  });
}
