import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths";

// OUTPOST_OUT_DIR: the built server finds react, react-dom and better-sqlite3 only in the
// checkout's node_modules, so a folder outside it (or the checkout itself, whose files a build
// replaces) is refused before anything is built or removed.
describe("scripts/build.mjs with OUTPOST_OUT_DIR", () => {
  const build = (outDir: string) =>
    spawnSync(process.execPath, ["scripts/build.mjs"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, OUTPOST_OUT_DIR: outDir },
      encoding: "utf8",
      timeout: 30_000,
    });

  it.each([
    ["an absolute folder outside the checkout", path.join(os.tmpdir(), `outpost-out-${process.pid}`)],
    ["a relative one leading out of it", "../outpost-elsewhere"],
    ["the checkout itself", "."],
  ])("refuses %s, naming the variable, and builds nothing", (_, outDir) => {
    const result = build(outDir);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("OUTPOST_OUT_DIR");
    expect(result.stderr).toContain("must be a folder inside the checkout");
    if (outDir !== ".") expect(existsSync(path.resolve(ROOT, outDir))).toBe(false);
  });
});
