import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths";

// The image's CMD is checked against scripts/server-command.mjs, the node arguments npm start,
// the bench and the tests run the server with: an image that ran it otherwise fails the lint.

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const lint = (dockerfile: string) => {
  dir = mkdtempSync(path.join(tmpdir(), "outpost-lint-dockerfile-"));
  const file = path.join(dir, "Dockerfile");
  writeFileSync(file, dockerfile);
  // The lint reads the .dockerignore beside the Dockerfile.
  writeFileSync(path.join(dir, ".dockerignore"), readFileSync(path.join(ROOT, ".dockerignore")));
  return spawnSync(process.execPath, ["scripts/image/lint-dockerfile.mjs", file], { cwd: ROOT, encoding: "utf8" });
};

describe("lint-dockerfile", () => {
  const dockerfile = readFileSync(path.join(ROOT, "Dockerfile"), "utf8");

  it("passes the checkout's Dockerfile", () => {
    const result = lint(dockerfile);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("fails a CMD that runs the server without the production node flags, naming what it should run", () => {
    const withoutFlags = dockerfile.replace(/^CMD \[.*\]$/m, 'CMD ["node", "--import", "./dist/server/instrument.js", "./dist/server/index.js"]');
    expect(withoutFlags).not.toBe(dockerfile);
    const result = lint(withoutFlags);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("CMD should run node --max-semi-space-size=32 --import ./dist/server/instrument.js ./dist/server/index.js");
  });
});
