import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compileCssModule } from "../../../../scripts/build/css/css-modules.mjs";
import { createStyleTransform } from "../../../../scripts/build/css/style-transform.mjs";

// CSS Modules as the server's and the browser's builds both see them: one name per class, taken
// from the file's place in the project, with `composes` joined in.
describe("CSS Modules", () => {
  let root: string;
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  const classesOf = (file: string, at = root) => createStyleTransform({ root: at, production: true }).moduleClasses(path.join(at, file));
  /** The error a module's classes fail with, as the build reports it: its text and where it points. */
  const failureOf = async (file: string) => {
    const error = await classesOf(file).then(
      () => undefined,
      (thrown: Error & { cssLocation?: { file: string; line: number; lineText: string } }) => thrown,
    );
    expect(error, `${file} compiled`).toBeDefined();
    return { message: error?.message ?? "", location: error?.cssLocation };
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), "outpost-css-modules-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("names each class <File>_<class>_<hash>, the same in two compiles and two checkouts of the project", async () => {
    const css = ".card {\n  padding: 12px;\n}\n.title {\n  color: red;\n}\n";
    write("src/app/Card.module.css", css);
    const first = await classesOf("src/app/Card.module.css");
    expect(first.classes.card).toMatch(/^Card_card_[A-Za-z0-9_-]+$/);
    expect(await classesOf("src/app/Card.module.css")).toEqual(first);
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), "outpost-css-modules-copy-"));
    try {
      mkdirSync(path.join(elsewhere, "src/app"), { recursive: true });
      writeFileSync(path.join(elsewhere, "src/app/Card.module.css"), css);
      expect((await classesOf("src/app/Card.module.css", elsewhere)).classes).toEqual(first.classes);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("gives the same class of two files of the same name different names", async () => {
    write("src/a/Card.module.css", ".title {\n  color: red;\n}\n");
    write("src/b/Card.module.css", ".title {\n  color: red;\n}\n");
    const a = (await classesOf("src/a/Card.module.css")).classes.title;
    const b = (await classesOf("src/b/Card.module.css")).classes.title;
    expect(a).toMatch(/^Card_title_/);
    expect(b).toMatch(/^Card_title_/);
    expect(a).not.toBe(b);
  });

  it("joins in what a class composes: within the file, transitively, from another module and global names", async () => {
    write("Base.module.css", ".surface {\n  composes: tone;\n  background: white;\n}\n.tone {\n  color: black;\n}\n");
    write(
      "Card.module.css",
      [
        ".frame {\n  border: 1px solid;\n}",
        ".inner {\n  composes: frame;\n}",
        ".card {\n  composes: inner;\n  composes: surface from \"./Base.module.css\";\n  composes: shadow-lg from global;\n  padding: 12px;\n}",
      ].join("\n"),
    );
    const base = (await classesOf("Base.module.css")).classes;
    const { classes, imports } = await classesOf("Card.module.css");
    const split = (names: string | undefined) => names?.split(" ") ?? [];
    expect(split(classes.inner)).toEqual([expect.stringMatching(/^Card_inner_/), classes.frame]);
    expect(split(classes.card)).toEqual([
      expect.stringMatching(/^Card_card_/),
      ...split(classes.inner),
      ...split(base.surface),
      "shadow-lg",
    ]);
    expect(split(base.surface)).toEqual([expect.stringMatching(/^Base_surface_/), base.tone]);
    // The composed-from module is imported first, so its stylesheet is linked before this one's.
    expect(imports).toEqual([path.join(root, "Base.module.css")]);
  });

  it("keeps :global selectors as written and renames the local ones beside them", () => {
    const file = path.join(root, "Card.module.css");
    const { css, exports } = compileCssModule({ root, file, css: ":global(.page) .title {\n  color: red;\n}\n:global(.plain) {\n  color: blue;\n}\n" });
    expect(css).toContain(`.page .${exports.title?.name}`);
    expect(exports.title?.name).toMatch(/^Card_title_/);
    expect(css).toMatch(/^\.plain \{/m);
    expect(Object.keys(exports)).toEqual(["title"]);
  });

  it("refuses a composes of a class the file lacks, naming the file and the line", async () => {
    write("Card.module.css", ".frame {\n  color: red;\n}\n\n.card {\n  composes: fram;\n}\n");
    const { message, location } = await failureOf("Card.module.css");
    expect(message).toBe(".card composes .fram, which Card.module.css does not define");
    expect(location).toMatchObject({ file: path.join(root, "Card.module.css"), line: 6, lineText: "  composes: fram;" });
  });

  it("refuses a composes of a class another module lacks, or of a module that does not exist, naming the file and the line", async () => {
    write("Base.module.css", ".surface {\n  color: red;\n}\n");
    write("Card.module.css", ".card {\n  padding: 1px;\n  composes: surfaec from \"./Base.module.css\";\n}\n");
    write("Lost.module.css", ".card {\n  composes: surface from \"./Gone.module.css\";\n}\n");
    const missingClass = await failureOf("Card.module.css");
    expect(missingClass.message).toBe('.card composes .surfaec from ./Base.module.css, which does not define it');
    expect(missingClass.location).toMatchObject({ file: path.join(root, "Card.module.css"), line: 3 });
    const missingFile = await failureOf("Lost.module.css");
    expect(missingFile.message).toBe(".card composes from ./Gone.module.css, which does not exist");
    expect(missingFile.location).toMatchObject({ file: path.join(root, "Lost.module.css"), line: 2 });
  });

  it("refuses a composes cycle, within a file and across files, instead of looping", async () => {
    write("Loop.module.css", ".a {\n  composes: b;\n}\n.b {\n  composes: a;\n}\n");
    const within = await failureOf("Loop.module.css");
    expect(within.message).toMatch(/^\.[ab] composes itself/);
    expect(within.location?.file).toBe(path.join(root, "Loop.module.css"));
    write("One.module.css", ".x {\n  composes: y from \"./Two.module.css\";\n}\n");
    write("Two.module.css", ".y {\n  composes: x from \"./One.module.css\";\n}\n");
    const across = await failureOf("One.module.css");
    expect(across.message).toBe("One.module.css composes from Two.module.css composes from One.module.css: a cycle");
    expect(across.location).toMatchObject({ file: path.join(root, "Two.module.css"), line: 2 });
    write("Self.module.css", '.x {\n  color: red;\n}\n.y {\n  composes: x from "./Self.module.css";\n}\n');
    const self = await failureOf("Self.module.css");
    expect(self.message).toBe("Self.module.css composes from Self.module.css: a cycle");
    expect(self.location).toMatchObject({ file: path.join(root, "Self.module.css"), line: 5 });
  });
});
