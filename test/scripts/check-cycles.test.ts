import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/paths";

const FIXTURES = "test/fixtures/cycles";

/** Runs `npm run check:cycles`'s script on a fixture tree: its exit code and what it printed. */
async function checkCycles(tree: string) {
  const folder = path.posix.join(FIXTURES, tree);
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["scripts/check-cycles.mjs", folder], { cwd: ROOT });
    return { code: 0, output: stdout + stderr, folder };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, output: stdout + stderr, folder };
  }
}

describe("check:cycles (scripts/check-cycles.mjs)", () => {
  it("passes a tree whose folders import one way only: parent to child, through an alias, or a virtual module it skips", async () => {
    const { code, output } = await checkCycles("acyclic");
    expect(output).toContain("no module or folder cycle");
    expect(code).toBe(0);
  });

  it("refuses two folders importing each other (one way through a package.json alias), naming both and an import per step", async () => {
    const { code, output, folder } = await checkCycles("folder-cycle");
    expect(code).toBe(1);
    expect(output).toContain(`${folder}/a → ${folder}/b → ${folder}/a`);
    expect(output).toContain(`${folder}/a/alpha.ts → ${folder}/b/beta.ts`);
    expect(output).toContain(`${folder}/b/beta.ts → ${folder}/a/leaf.ts`);
    expect(output).toContain("0 module cycles, 1 folder cycle");
  });

  it("refuses a child folder importing its parent, which imports it: child → parent → child", async () => {
    const { code, output, folder } = await checkCycles("parent-child");
    expect(code).toBe(1);
    expect(output).toContain(`${folder}/nested/child → ${folder}/nested → ${folder}/nested/child`);
    expect(output).toContain(`${folder}/nested/child/part.ts → ${folder}/nested/types.ts`);
    expect(output).toContain(`${folder}/nested/index.ts → ${folder}/nested/child/part.ts`);
  });

  it("still refuses two modules of one folder importing each other", async () => {
    const { code, output, folder } = await checkCycles("module-cycle");
    expect(code).toBe(1);
    expect(output).toContain(`module cycle: ${folder}/one/first.ts → ${folder}/one/second.ts → ${folder}/one/first.ts`);
    expect(output).toContain("1 module cycle, 0 folder cycles");
  });

  it("answers a path that is not a folder with exit code 2 and its name", async () => {
    const { code, output } = await checkCycles("missing");
    expect(code).toBe(2);
    expect(output).toContain(`${FIXTURES}/missing is not a folder`);
  });
});
