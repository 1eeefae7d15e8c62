import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuildTarget, buildLockFile, ensureBuild } from "../../support/builds";
import { FIXTURE_APP, FIXTURE_DIST, ROOT } from "../../support/paths";

// Running one test file must not rebuild what is current: a server may be serving it.
describe("the tests' builds", () => {
  let root: string;
  let product: BuildTarget;
  let fixture: BuildTarget;
  const builtAt = (target: BuildTarget) => statSync(path.join(root, target.outDir, "manifest.json")).mtimeMs;
  const touch = (file: string) => writeFileSync(path.join(root, file), readFileSync(path.join(root, file)));

  beforeAll(() => {
    // A copy of what the builds read, so the real dist/ is never rewritten under other tests.
    root = mkdtempSync(path.join(tmpdir(), "outpost-test-builds-"));
    for (const entry of ["src", "scripts/build", "scripts/build.mjs", "package.json", "package-lock.json", "tsconfig.json", FIXTURE_APP]) {
      cpSync(path.join(ROOT, entry), path.join(root, entry), { recursive: true });
    }
    symlinkSync(path.join(ROOT, "node_modules"), path.join(root, "node_modules"));
    product = { root, outDir: "dist", appDir: "src/app" };
    fixture = { root, outDir: FIXTURE_DIST, appDir: FIXTURE_APP };
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("builds what is missing, then leaves a current build alone", () => {
    expect(ensureBuild(product)).toBe("built");
    const first = builtAt(product);
    expect(ensureBuild(product)).toBe("current");
    expect(builtAt(product)).toBe(first);
  });

  it("rebuilds only the build whose sources changed, and a product build keeps the fixture's", () => {
    ensureBuild(product);
    expect(ensureBuild(fixture)).toBe("built");
    const productAt = builtAt(product);
    const fixtureAt = builtAt(fixture);

    touch(path.join(FIXTURE_APP, "Home.tsx"));
    expect(ensureBuild(product)).toBe("current");
    expect(ensureBuild(fixture)).toBe("built");
    expect(builtAt(product)).toBe(productAt);
    expect(builtAt(fixture)).toBeGreaterThan(fixtureAt);

    touch("src/app/routes.ts");
    const fixtureRebuiltAt = builtAt(fixture);
    expect(ensureBuild(product)).toBe("built");
    expect(builtAt(product)).toBeGreaterThan(productAt);
    // The product's build replaced its own outputs only: the fixture app's, inside dist/, is untouched.
    expect(builtAt(fixture)).toBe(fixtureRebuiltAt);
  });

  it("counts a build made during the run as current, even if a source changed since", () => {
    const runStartedAt = builtAt(product) - 1;
    touch("src/app/routes.ts");
    expect(ensureBuild(product, runStartedAt)).toBe("current");
    expect(ensureBuild(product)).toBe("built");
  });

  it("takes over the lock of a process that died while building", () => {
    writeFileSync(buildLockFile(root), "2147483646"); // no such process
    touch("src/app/routes.ts");
    expect(ensureBuild(product)).toBe("built");
    expect(existsSync(buildLockFile(root))).toBe(false);
  });
}, 180_000);
