import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findCssModules, writeModuleDeclaration } from "../../scripts/build/css/module-types.mjs";
import { createStyleTransform } from "../../scripts/build/css/style-transform.mjs";
import { ROOT } from "../support/paths";

const TSC = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");

// `npm run typecheck` on a product's CSS Module: its classes typecheck, a class the file lacks
// does not. The declarations are generated as scripts/css-types.mjs makes them, in a folder of
// the repository (a dot-folder: outside what its own tsconfig includes), compiled with the root
// tsconfig's options. Both files in one run of tsc, to keep it fast.
describe("a CSS Module's generated types", () => {
  let dir: string;
  let errors: string[];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(ROOT, ".css-types-test-"));
    const write = (file: string, text: string) => writeFileSync(path.join(dir, file), text);
    write("tsconfig.json", JSON.stringify({ extends: "../tsconfig.json", files: ["Good.tsx", "Bad.tsx"], include: [] }));
    write("Base.module.css", ".surface {\n  color: red;\n}\n");
    write("Card.module.css", '.card {\n  composes: surface from "./Base.module.css";\n}\n.is-open {\n  color: blue;\n}\n');
    write(
      "Good.tsx",
      'import card from "./Card.module.css";\nexport const names: string[] = [card.card, card["is-open"]];\n',
    );
    write("Bad.tsx", 'import card from "./Card.module.css";\nexport const name: string = card.missing;\n');
    const transform = createStyleTransform({ root: ROOT, production: false });
    for (const file of findCssModules([dir])) writeModuleDeclaration(file, (await transform.moduleClasses(file)).classes);
    const run = await promisify(execFile)(process.execPath, [TSC, "--noEmit", "-p", dir], { cwd: ROOT }).then(
      () => "",
      (failure: { stdout: string }) => failure.stdout,
    );
    errors = run.split("\n").filter((line) => /error TS\d+/.test(line));
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("lets every class of the file typecheck as a string, a composing one and one with a dash included", () => {
    expect(errors.filter((line) => line.includes("Good.tsx"))).toEqual([]);
  });

  it("fails on a class the file lacks with TS2339 naming it, and on nothing else", () => {
    expect(errors).toEqual([expect.stringMatching(/Bad\.tsx\(2,\d+\): error TS2339: Property 'missing' does not exist on type/)]);
  });
});
