import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { BUILD_INPUTS, staleBuildReason } from "../../scripts/build/freshness.mjs";
import { DIST, FIXTURE_APP, FIXTURE_DIST, PRODUCT_APP, ROOT } from "./paths";

/** One production build of one app: `outDir` and `appDir` relative to `root`, as the build script takes them. */
export interface BuildTarget {
  root: string;
  outDir: string;
  appDir: string;
}

const LOCK_TIMEOUT_MS = 180_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Makes `target`'s build unless it is current: built during this run (`runStartedAt`, so a
 * server serving it is never rebuilt under), or newer than every source it is made from.
 * Test workers share one lock per project, so two never build at once nor twice.
 */
export function ensureBuild(target: BuildTarget, runStartedAt = Number.POSITIVE_INFINITY): "current" | "built" {
  if (!staleReason(target, runStartedAt)) return "current";
  const release = lock(target.root);
  try {
    const reason = staleReason(target, runStartedAt);
    if (!reason) return "current";
    console.info(`tests: building ${target.outDir}/ (${reason})`);
    execFileSync(process.execPath, [path.join(target.root, "scripts", "build.mjs")], {
      cwd: target.root,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, OUTPOST_APP_DIR: target.appDir, OUTPOST_OUT_DIR: target.outDir },
    });
    return "built";
  } finally {
    release();
  }
}

function staleReason(target: BuildTarget, runStartedAt: number): string | undefined {
  const outDir = path.join(target.root, target.outDir);
  try {
    if (statSync(path.join(outDir, "manifest.json")).mtimeMs >= runStartedAt) return undefined;
  } catch {
    return "no build yet";
  }
  // An app outside src/ (the fixture app) is an input of its own build too.
  const inputs = target.appDir.startsWith("src/") ? BUILD_INPUTS : [...BUILD_INPUTS, target.appDir];
  return staleBuildReason(target.root, outDir, inputs);
}

/** Where the workers of a run on the project at `root` take turns to build. */
export const buildLockFile = (root: string): string =>
  path.join(tmpdir(), `outpost-build-${createHash("sha256").update(root).digest("hex").slice(0, 12)}.lock`);

/** An exclusive lock file holding its owner's pid; one left by a process that died is taken over. */
function lock(root: string): () => void {
  const file = buildLockFile(root);
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  for (;;) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => unlinkSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (!ownerAlive(file)) {
      unlinkSync(file);
      continue;
    }
    if (Date.now() > deadline) throw new Error(`tests: another process has held the build lock ${file} for ${LOCK_TIMEOUT_MS / 1000} s`);
    Atomics.wait(sleeper, 0, 0, 100);
  }
}

function ownerAlive(file: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(file, "utf8"));
  } catch {
    return true; // removed meanwhile, or not yet written: try again
  }
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** When this test run started (the global setup provides it), or undefined outside vitest's workers. */
function runStartedAt(): number | undefined {
  try {
    return inject("testRunStartedAt");
  } catch {
    return undefined;
  }
}

const TESTS_BUILDS: BuildTarget[] = [
  { root: ROOT, outDir: path.relative(ROOT, DIST), appDir: PRODUCT_APP },
  { root: ROOT, outDir: FIXTURE_DIST, appDir: FIXTURE_APP },
];

/**
 * `dist` (absolute), made first if it is the product's or the fixture app's build and stale
 * (unless OUTPOST_SKIP_BUILD=true); every harness that serves or reads a build passes it here.
 */
export function built(dist: string): string {
  const target = TESTS_BUILDS.find((build) => path.join(build.root, build.outDir) === path.resolve(dist));
  if (target && process.env.OUTPOST_SKIP_BUILD !== "true") ensureBuild(target, runStartedAt());
  return dist;
}

/** The product's production build (dist/), for the product's own tests. */
export const productBuild = (): string => built(DIST);

/** The fixture app's production build (dist/fixture/), for the platform's tests. */
export const fixtureBuild = (): string => built(path.join(ROOT, FIXTURE_DIST));
