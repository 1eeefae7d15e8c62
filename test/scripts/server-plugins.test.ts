import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runInNewContext } from "node:vm";
import { decode, encode } from "@jridgewell/sourcemap-codec";
import * as esbuild from "esbuild";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a build script in plain JavaScript, without types
import { lazyRequire, trimMappings, usedSourcesOnly } from "../../scripts/build/server-plugins.mjs";

describe("trimMappings (server source maps keep the project's code only)", () => {
  it("drops vendor segments, marking where each vendor run starts, and keeps project segments as they were", () => {
    // Sources: 0 is the project's, 1 a package's.
    const isVendor = [false, true];
    const mappings = encode([
      [
        [0, 0, 10, 4],
        [5, 1, 200, 0],
        [9, 1, 201, 2],
        [14, 0, 11, 0, 0],
      ],
      [[0, 1, 300, 0]],
      [
        [2, 1, 301, 0],
        [7, 0, 12, 8],
      ],
    ]);
    expect(decode(trimMappings(mappings, isVendor) as string)).toEqual([
      [
        [0, 0, 10, 4],
        [5],
        [14, 0, 11, 0, 0],
      ],
      [[0]],
      [[7, 0, 12, 8]],
    ]);
  });
});

describe("usedSourcesOnly (a map lists only the sources its mappings name)", () => {
  it("drops the sources no segment names and renumbers the segments of the others", () => {
    const map = {
      version: 3,
      sources: ["vendor/a.js", "src/b.ts", "vendor/c.js", "src/d.ts"],
      names: ["x"],
      mappings: encode([[[0, 1, 4, 2], [6]], [[0, 3, 9, 0, 0]]]),
    };
    const used = usedSourcesOnly(map) as typeof map;
    expect(used.sources).toEqual(["src/b.ts", "src/d.ts"]);
    expect(used.names).toEqual(["x"]);
    expect(decode(used.mappings)).toEqual([[[0, 0, 4, 2], [6]], [[0, 1, 9, 0, 0]]]);
  });
});

describe("lazyRequire (a required package runs when an export is first used)", () => {
  it("runs the package on the first call or read of an export, once, and gives its exports", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "outpost-lazy-require-"));
    try {
      mkdirSync(path.join(dir, "node_modules", "costly"), { recursive: true });
      writeFileSync(
        path.join(dir, "node_modules", "costly", "index.js"),
        "globalThis.runs += 1; exports.answer = () => 42; exports.table = { a: 1 };",
      );
      writeFileSync(path.join(dir, "entry.js"), "const costly = require('costly'); module.exports = { costly };");
      const { outputFiles } = await esbuild.build({
        absWorkingDir: dir,
        entryPoints: ["entry.js"],
        bundle: true,
        write: false,
        format: "iife",
        globalName: "bundle",
        plugins: [lazyRequire({ root: dir, pkg: "costly" })],
      });
      const context = { runs: 0 } as { runs: number; bundle?: { costly: { answer(): number; table: object } } };
      runInNewContext(outputFiles[0]?.text as string, context);
      // Reading a function export (as Koa's response does at load) does not run it yet.
      const answer = context.bundle?.costly.answer as () => number;
      expect(context.runs).toBe(0);
      expect(answer()).toBe(42);
      expect(context.bundle?.costly.table).toEqual({ a: 1 });
      expect(context.runs).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
