import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as esbuild from "esbuild";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { classNameDisagreement, styleImportsPlugin } from "../../../../scripts/build/css/style-imports-plugin.mjs";
import { createStyleTransform } from "../../../../scripts/build/css/style-transform.mjs";

// What a script's `import "./x.css"` becomes in the server's and the browser's builds, and what the
// build refuses instead of shipping a page styled differently than written.
describe("the script builds' stylesheet imports", () => {
  let root: string;
  const write = (file: string, text: string) => writeFileSync(path.join(root, file), text);
  const bundle = (classes?: Map<string, Record<string, string>>) =>
    esbuild.build({
      absWorkingDir: root,
      entryPoints: ["page.tsx"],
      bundle: true,
      write: false,
      format: "esm",
      logLevel: "silent",
      metafile: true,
      plugins: [styleImportsPlugin({ transform: createStyleTransform({ root, production: true }), classes })],
    });
  const errorsOf = async () => {
    const failure = await bundle().then(
      () => undefined,
      (error: esbuild.BuildFailure) => error,
    );
    expect(failure, "the build passed").toBeDefined();
    return failure?.errors ?? [];
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), "outpost-style-imports-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("gives a CSS Module's import its class names, composed-from modules imported first, and a global stylesheet's nothing", async () => {
    write("Base.module.css", ".surface {\n  color: red;\n}\n");
    write("Card.module.css", '.card {\n  composes: surface from "./Base.module.css";\n}\n');
    write("global.css", ".global-only-rule {\n  color: red;\n}\n");
    write("page.tsx", 'import "./global.css";\nimport card from "./Card.module.css";\nexport const names = card;\n');
    const classes = new Map<string, Record<string, string>>();
    const result = await bundle(classes);
    const code = result.outputFiles.map((file) => file.text).join("\n");
    const card = classes.get(path.join(root, "Card.module.css"));
    expect(card?.card).toMatch(/^Card_card_\S+ Base_surface_\S+$/);
    const [, surface] = card?.card?.split(" ") ?? [];
    expect(code).toContain(JSON.stringify(card?.card));
    expect(classes.get(path.join(root, "Base.module.css"))?.surface).toBe(surface);
    expect(code).not.toContain("global-only-rule");
    // In the import graph the stylesheets are linked from: the page's in import order, the composed-from module under its composer.
    expect(result.metafile.inputs["page.tsx"]?.imports.map((item) => item.path)).toEqual(["global.css", "Card.module.css"]);
    expect(result.metafile.inputs["Card.module.css"]?.imports.map((item) => item.path)).toEqual(["Base.module.css"]);
  });

  it.each([
    ["theme.scss", "Sass"],
    ["theme.sass", "Sass"],
    ["theme.less", "Less"],
  ])("fails the build on an import of %s (%s), naming the importing file and line", async (file, language) => {
    write(file, "$unused: 1;\n");
    write("page.tsx", `import "./plain.css";\n\nimport theme from "./${file}";\nexport default theme;\n`);
    write("plain.css", ".plain {\n  color: red;\n}\n");
    const [error, ...others] = await errorsOf();
    expect(others).toEqual([]);
    expect(error?.text).toContain(`./${file} is ${language}, which Outpost does not compile`);
    expect(error?.location).toMatchObject({ file: "page.tsx", line: 3, lineText: `import theme from "./${file}";` });
  });

  it("fails the build on a composes of an unknown class, naming the stylesheet and line", async () => {
    write("Card.module.css", ".frame {\n  color: red;\n}\n.card {\n  composes: frmae;\n}\n");
    write("page.tsx", 'import card from "./Card.module.css";\nexport default card;\n');
    const [error] = await errorsOf();
    expect(error?.text).toBe(".card composes .frmae, which Card.module.css does not define");
    expect(error?.location).toMatchObject({ file: "Card.module.css", line: 5, lineText: "  composes: frmae;" });
  });

  it("names the first class the server's and the browser's builds disagree on with its file and line, and nothing when they agree", () => {
    const file = path.join(root, "Card.module.css");
    write("Card.module.css", ".title {\n  color: red;\n}\n.card {\n  padding: 1px;\n}\n");
    const server = new Map([[file, { card: "Card_card_a", title: "Card_title_a" }]]);
    expect(classNameDisagreement(server, new Map([[file, { card: "Card_card_a", title: "Card_title_a" }]]), root)).toBeUndefined();
    expect(classNameDisagreement(server, new Map([[file, { card: "e", title: "Card_title_a" }]]), root)).toBe(
      'Card.module.css:4: .card is "Card_card_a" in the server\'s build but "e" in the browser\'s',
    );
  });
});
