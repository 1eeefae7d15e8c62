import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createStyleTransform } from "../../../../scripts/build/css/style-transform.mjs";
import { ROOT } from "../../../support/paths";

// The one transform every stylesheet goes through: Tailwind by its own engine where the file uses
// it, then the product's PostCSS plugins where it has a config, then CSS Modules.
describe("the stylesheet transform", () => {
  /** A project of its own, with the repository's packages as `npm ci` would have installed them. */
  let root: string;
  const write = (file: string, text: string) => writeFileSync(path.join(root, file), text);
  const stylesheet = (file: string) => createStyleTransform({ root, production: true }).stylesheet(path.join(root, file));

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), "outpost-style-transform-"));
    symlinkSync(path.join(ROOT, "node_modules"), path.join(root, "node_modules"), "dir");
    write("package.json", JSON.stringify({ name: "styled-product", type: "module" }));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  describe("Tailwind CSS v4", () => {
    beforeEach(() => {
      write("Page.tsx", 'export const Page = () => <p className="flex card-gap text-emerald-700 heading">styled</p>;\n');
      write(
        "app.css",
        '@import "tailwindcss";\n\n@theme {\n  --color-brand: #1d4ed8;\n}\n\n@utility card-gap {\n  gap: 0.75rem;\n}\n\n.heading {\n  @apply text-brand font-bold;\n}\n',
      );
    });

    it("holds the utilities the project's sources use, and not others", async () => {
      const { css } = await stylesheet("app.css");
      expect(css).toMatch(/\.flex \{\s*display: flex;\s*\}/);
      expect(css).toMatch(/\.text-emerald-700 \{\s*color: var\(--color-emerald-700\);\s*\}/);
      expect(css).toMatch(/--color-emerald-700: oklch\(/);
      expect(css).not.toMatch(/\.grid-cols-7\b/);
      expect(css).not.toMatch(/\.text-rose-500\b/);
    });

    it("applies @theme, @utility and @apply", async () => {
      const { css } = await stylesheet("app.css");
      expect(css).toMatch(/--color-brand: #1d4ed8;/);
      expect(css).toMatch(/\.card-gap \{\s*gap: \.75rem;\s*\}/);
      expect(css).toMatch(/\.heading \{[^}]*font-weight: var\(--font-weight-bold\);[^}]*color: var\(--color-brand\);[^}]*\}/);
      expect(css).not.toContain("@apply");
      expect(css).not.toContain("@utility");
    });

    it("names the scanned sources among the files the stylesheet was made from, for the dev watcher", async () => {
      const { dependencies } = await stylesheet("app.css");
      expect(dependencies).toEqual(expect.arrayContaining([path.join(root, "app.css"), path.join(root, "Page.tsx")]));
    });

    it("leaves a stylesheet that does not use Tailwind as written", async () => {
      write("plain.css", ".plain {\n  color: red;\n}\n");
      expect((await stylesheet("plain.css")).css).toBe(".plain {\n  color: red;\n}\n");
    });
  });

  describe("PostCSS", () => {
    // An inline plugin, as a product may write one: every `red` becomes `blue`.
    const config = `export default {
  plugins: [{ postcssPlugin: "red-to-blue", Declaration(declaration) { if (declaration.value === "red") declaration.value = "blue"; } }],
};\n`;

    beforeEach(() => {
      write("plain.css", ".plain {\n  color: red;\n}\n");
      write("Card.module.css", ".card {\n  color: red;\n}\n");
    });

    it("applies the plugins of the root's postcss.config.mjs to every stylesheet, CSS Modules included", async () => {
      write("postcss.config.mjs", config);
      const plain = await stylesheet("plain.css");
      expect(plain.css).toContain("color: blue");
      expect(plain.dependencies).toContain(path.join(root, "postcss.config.mjs"));
      // Lightning CSS, after PostCSS, writes blue its shortest way.
      expect((await stylesheet("Card.module.css")).css).toMatch(/^\.Card_card_\S+ \{\s*color: #00f;\s*\}/);
    });

    it("reads a CommonJS postcss.config.cjs too", async () => {
      write("postcss.config.cjs", config.replace("export default", "module.exports ="));
      expect((await stylesheet("plain.css")).css).toContain("color: blue");
    });

    it("runs no PostCSS without a config", async () => {
      expect((await stylesheet("plain.css")).css).toContain("color: red");
      expect((await stylesheet("Card.module.css")).css).toMatch(/^\.Card_card_\S+ \{\s*color: red;\s*\}/);
    });

    it("fails clearly on a plugin named by a package that is not installed", async () => {
      write("postcss.config.mjs", 'export default { plugins: { "postcss-not-installed-here": {} } };\n');
      await expect(stylesheet("plain.css")).rejects.toThrow(
        "postcss.config.mjs names the PostCSS plugin postcss-not-installed-here, which is not installed: npm install --save-dev postcss-not-installed-here",
      );
    });
  });
});
