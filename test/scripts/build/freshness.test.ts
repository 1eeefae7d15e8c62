import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { staleBuildReason } from "../../../scripts/build/freshness.mjs";

// `npm start` rebuilds when this says so: it must notice an edit made after the build.
describe("staleBuildReason", () => {
  let root: string;
  const dist = () => path.join(root, "dist");
  const write = (file: string, at: number) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), "x");
    utimesSync(path.join(root, file), at, at);
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), "outpost-freshness-"));
    write("src/app/home/HomePage.tsx", 1_000);
    write("package.json", 1_000);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("asks for a build when there is none", () => {
    expect(staleBuildReason(root, dist())).toBe("no build yet");
  });

  it("serves a build newer than every source", () => {
    write("dist/manifest.json", 2_000);
    expect(staleBuildReason(root, dist())).toBeUndefined();
  });

  it("names the source edited after the build, however deep", () => {
    write("dist/manifest.json", 2_000);
    write("src/app/notes/deep/NotesPage.tsx", 3_000);
    expect(staleBuildReason(root, dist())).toBe(`${path.join("src", "app", "notes", "deep", "NotesPage.tsx")} changed after the build`);
  });

  it("counts the build scripts and the lock file as sources", () => {
    write("dist/manifest.json", 2_000);
    write("scripts/build/options.mjs", 3_000);
    expect(staleBuildReason(root, dist())).toMatch(/options\.mjs changed/);
    write("scripts/build/options.mjs", 1_000);
    write("package-lock.json", 3_000);
    expect(staleBuildReason(root, dist())).toMatch(/package-lock\.json changed/);
  });

  it("ignores files that are not build inputs", () => {
    write("dist/manifest.json", 2_000);
    write("README.md", 3_000);
    write("test/x.test.ts", 3_000);
    expect(staleBuildReason(root, dist())).toBeUndefined();
  });
});
