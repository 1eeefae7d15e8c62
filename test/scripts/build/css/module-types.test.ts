import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { declarationFile, findCssModules, moduleDeclaration, writeModuleDeclaration } from "../../../../scripts/build/css/module-types.mjs";

// A CSS Module's TypeScript declaration, generated from its CSS beside it (allowArbitraryExtensions).
describe("CSS Modules' declarations", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), "outpost-module-types-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("sit beside the CSS as X.module.d.css.ts", () => {
    expect(declarationFile("/app/Card.module.css")).toBe("/app/Card.module.d.css.ts");
  });

  it("declare every class as a readonly string, sorted, with any name CSS allows", () => {
    expect(moduleDeclaration("/app/Card.module.css", { title: "Card_title_x", card: "Card_card_x", "is-open": "Card_is-open_x" })).toBe(
      [
        "// Generated from Card.module.css by Outpost's build (npm run build, dev, typecheck): edit the CSS, not this.",
        "declare const classes: {",
        '  readonly "card": string;',
        '  readonly "is-open": string;',
        '  readonly "title": string;',
        "};",
        "export default classes;",
        "",
      ].join("\n"),
    );
  });

  it("are rewritten only when they change, so a watcher is not woken for nothing", () => {
    const file = path.join(root, "Card.module.css");
    const target = declarationFile(file);
    writeModuleDeclaration(file, { card: "Card_card_x" });
    // Whole seconds: utimes takes seconds as a float, which need not give back a millisecond exactly.
    const past = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    utimesSync(target, past, past);
    writeModuleDeclaration(file, { card: "Card_card_x" });
    expect(Math.round(statSync(target).mtimeMs)).toBe(past.getTime());
    writeModuleDeclaration(file, { card: "Card_card_x", title: "Card_title_x" });
    expect(statSync(target).mtimeMs).toBeGreaterThan(past.getTime());
    expect(readFileSync(target, "utf8")).toContain('readonly "title": string;');
  });

  it("are made for every CSS Module of the folders given, but those in node_modules, dist and dot-folders", () => {
    for (const file of ["src/a/A.module.css", "src/B.module.css", "src/plain.css", "node_modules/x/X.module.css", "dist/D.module.css", ".cache/C.module.css"]) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), ".a {}\n");
    }
    expect(findCssModules([root]).map((file) => path.relative(root, file))).toEqual(["src/B.module.css", "src/a/A.module.css"]);
  });
});
