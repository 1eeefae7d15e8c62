import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildStylesheets, CSS_SYNTAX_ERROR, stylesheetBuilder, stylesheetName } from "../../../../scripts/build/css/stylesheets.mjs";
import { createStyleTransform } from "../../../../scripts/build/css/style-transform.mjs";

describe("a stylesheet's output name", () => {
  const root = "/project";

  it("is its path under src/ flattened, without .css", () => {
    expect(stylesheetName(root, "/project/src/app/styled/Card.module.css")).toBe("app_styled_Card.module");
    expect(stylesheetName(root, "/project/src/app/styles.css")).toBe("app_styles");
  });

  it("is its path in the project for a file outside src/", () => {
    expect(stylesheetName(root, "/project/test/fixtures/app/styles.css")).toBe("test_fixtures_app_styles");
  });

  it("holds only characters a URL path keeps as they are, and at most the last 100", () => {
    expect(stylesheetName(root, "/project/src/app/(shop) pages/ä+b.css")).toBe("app_shop_pages_b");
    const deep = `/project/src/${"nested/".repeat(30)}Deep.module.css`;
    const name = stylesheetName(root, deep);
    expect(name).toHaveLength(100);
    expect(name.endsWith("nested_Deep.module")).toBe(true);
  });
});

// One stylesheet per CSS file a script imports, its own @imports inlined, what it names with url() hashed beside it.
describe("the stylesheet build", () => {
  let root: string;
  const write = (file: string, content: string | Buffer) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), "outpost-stylesheets-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("writes each file's stylesheet under styles/ and each image or font it names under media/, content-hashed", async () => {
    write("src/app/page.css", '@import "./base.css";\n.page {\n  background: url("./dot.png");\n}\n@font-face {\n  font-family: Body;\n  src: url("./fonts/body.woff2");\n}\n');
    write("src/app/base.css", ".base {\n  color: red;\n}\n");
    write("src/app/dot.png", Buffer.from("89504e470d0a1a0a", "hex"));
    write("src/app/fonts/body.woff2", Buffer.from("774f4632", "hex"));
    const { outputs, metafile } = await buildStylesheets({
      root,
      assetsDir: path.join(root, "dist/client/assets"),
      files: [path.join(root, "src/app/page.css"), path.join(root, "src/app/base.css")],
      transform: createStyleTransform({ root, production: true }),
      production: true,
      write: false,
    });
    expect(outputs.get(path.join(root, "src/app/page.css"))).toMatch(/^dist\/client\/assets\/styles\/app_page-[A-Z0-9]{8}\.css$/);
    expect(outputs.get(path.join(root, "src/app/base.css"))).toMatch(/^dist\/client\/assets\/styles\/app_base-[A-Z0-9]{8}\.css$/);
    const media = Object.keys(metafile.outputs).filter((output) => output.includes("/media/"));
    expect(media.sort()).toEqual([
      expect.stringMatching(/^dist\/client\/assets\/media\/body-[A-Z0-9]{8}\.woff2$/),
      expect.stringMatching(/^dist\/client\/assets\/media\/dot-[A-Z0-9]{8}\.png$/),
    ]);
    // The @import is inlined: the page's stylesheet holds base.css's rule too.
    expect(Object.keys(metafile.outputs[outputs.get(path.join(root, "src/app/page.css")) ?? ""]?.inputs ?? {})).toEqual(
      expect.arrayContaining(["src/app/base.css", "src/app/page.css"]),
    );
  });

  it("reports CSS it cannot parse as a syntax error with its file and line, which the build then refuses", async () => {
    write("src/app/broken.css", ".ok {\n  color: red;\n}\n.broken {\n  color: red;;\n  }}\n");
    const { warnings } = await buildStylesheets({
      root,
      assetsDir: path.join(root, "dist/client/assets"),
      files: [path.join(root, "src/app/broken.css")],
      transform: createStyleTransform({ root, production: true }),
      production: true,
      write: false,
    });
    const syntax = warnings.filter((warning) => warning.id === CSS_SYNTAX_ERROR);
    expect(syntax.length).toBeGreaterThan(0);
    expect(syntax[0]?.location).toMatchObject({ file: expect.stringContaining("broken.css"), line: 6 });
  });

  it("builds again through one context per list of files (the dev loop): a save shows in the next build, a new list builds its own files", async () => {
    write("src/app/a.css", ".a {\n  color: red;\n}\n");
    write("src/app/b.css", ".b {\n  color: blue;\n}\n");
    const [a, b] = [path.join(root, "src/app/a.css"), path.join(root, "src/app/b.css")];
    const builder = stylesheetBuilder({
      root,
      assetsDir: path.join(root, "dist/client/assets"),
      transform: createStyleTransform({ root, production: false }),
      production: false,
      write: false,
    });
    try {
      const first = await builder.build([a]);
      write("src/app/a.css", ".a {\n  color: green;\n}\n");
      const saved = await builder.build([a]);
      // Content-hashed: a new name for the new rule.
      expect(saved.outputs.get(a)).toMatch(/app_a-[A-Z0-9]{8}\.css$/);
      expect(saved.outputs.get(a)).not.toBe(first.outputs.get(a));
      const both = await builder.build([a, b]);
      expect([...both.outputs.keys()].sort()).toEqual([a, b]);
      expect(both.outputs.get(a)).toBe(saved.outputs.get(a));
      expect((await builder.build([])).outputs.size).toBe(0);
    } finally {
      await builder.dispose();
    }
  });
});
