import { execFileSync } from "node:child_process";

/** Builds the production bundle once per test run; the tests exercise what ships. */
export default function setup(): void {
  if (process.env.OUTPOST_SKIP_BUILD === "true") return;
  execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
}
