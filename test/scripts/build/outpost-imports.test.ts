import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as esbuild from "esbuild";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { importedNames, outpostImportsPlugin, readBarrel } from "../../../scripts/build/outpost-imports.mjs";

// The browser build gives each module only the parts of `#outpost` it imports, so a hook that
// some lazily loaded pages use stays out of the chunk of a module that imports a Link.
describe("the browser build's #outpost imports", () => {
  let root: string;
  const write = (file: string, text: string) => writeFileSync(path.join(root, file), text);
  const bundle = async (entry: string) => {
    const result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: "esm",
      logLevel: "silent",
      plugins: [outpostImportsPlugin({ barrel: path.join(root, "outpost.ts") })],
    });
    return result.outputFiles.map((file) => file.text).join("\n");
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), "outpost-imports-"));
    write("package.json", JSON.stringify({ type: "module", imports: { "#outpost": "./outpost.ts" } }));
    write("link.ts", 'export const Link = () => "link-code";\nexport type LinkProps = { to: string };\n');
    write("form.ts", 'export const Form = () => "form-code";\nconsole.log("form-module-ran");\n');
    write("outpost.ts", 'export { Link, type LinkProps } from "./link";\nexport { Form as PageForm } from "./form";\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("bundles only the modules of the names a module imports", async () => {
    write("page.ts", 'import { type LinkProps, Link } from "#outpost";\nexport const page = (props: LinkProps) => Link();\n');
    const code = await bundle("page.ts");
    expect(code).toContain("link-code");
    expect(code).not.toContain("form-code");
    expect(code).not.toContain("form-module-ran");
  });

  it("follows a name the barrel renames, and one imported under another name", async () => {
    write("page.ts", 'import {\n  Link as L,\n  PageForm,\n} from "#outpost";\nexport const page = () => [L(), PageForm()];\n');
    const code = await bundle("page.ts");
    expect(code).toContain("link-code");
    expect(code).toContain("form-code");
  });

  it("leaves a namespace import to the whole barrel", async () => {
    write("page.ts", 'import * as outpost from "#outpost";\nexport const page = () => outpost.Link();\n');
    expect(await bundle("page.ts")).toContain("form-module-ran");
  });

  it("reads the names a module imports, its types left out", () => {
    expect(importedNames('import { a, type B, c as d } from "#outpost";\nimport type { E } from "#outpost";')).toEqual(["a", "c as d"]);
    expect(importedNames('import { a } from "#outpost";\nexport { b } from "#outpost";')).toBeUndefined();
    expect(importedNames('import "#outpost";')).toBeUndefined();
  });

  it("refuses a barrel with an export it cannot follow", async () => {
    write("outpost.ts", 'export { Link } from "./link";\nexport * from "./form";\n');
    await expect(readBarrel(path.join(root, "outpost.ts"))).rejects.toThrow(/1 export statement\(s\) are not/);
  });
});
