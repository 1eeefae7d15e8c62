import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Scanner } from "@tailwindcss/oxide";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createStyleTransform } from "../../../scripts/build/css/style-transform.mjs";
// @ts-expect-error: a dev script in plain JavaScript, without types
import { devStylesheets } from "../../../scripts/dev/styles.mjs";
import { ROOT } from "../../support/paths";

// A small project: a Tailwind stylesheet scanning Page.tsx, and a CSS Module. Every compile the
// dev stylesheets ask of the transform is counted, by file.
describe("devStylesheets (the dev build's stylesheets, rebuilt after a save)", () => {
  let root: string;
  let compiles: string[];
  let stylesheets: {
    saved(files: string[]): void;
    build(metafile: unknown): Promise<{ outputs: Map<string, string> }>;
    inputs(): string[];
  };
  const metafile = { inputs: { "app/styles.css": {}, "app/Card.module.css": {}, "app/Page.tsx": {} }, outputs: {} };
  const write = (file: string, text: string) => writeFileSync(path.join(root, file), text);
  /** Saves a file and builds again: the files compiled for it, and the stylesheet of each CSS file. */
  const save = async (file: string, text: string) => {
    write(file, text);
    stylesheets.saved([file]);
    compiles = [];
    const { outputs } = await stylesheets.build(metafile);
    return { compiled: compiles.map((item) => path.relative(root, item)), outputs: new Map([...outputs].map(([file, output]) => [path.relative(root, file), output])) };
  };
  const tailwindCss = (outputs: Map<string, string>) => readFileSync(path.join(root, outputs.get("app/styles.css") ?? ""), "utf8");

  beforeEach(async () => {
    root = mkdtempSync(path.join(tmpdir(), "outpost-dev-styles-"));
    symlinkSync(path.join(ROOT, "node_modules"), path.join(root, "node_modules"));
    mkdirSync(path.join(root, "app"));
    write(".gitignore", ".dev-build/\n");
    write("app/styles.css", '@import "tailwindcss";\n');
    write("app/Card.module.css", ".card {\n  color: red;\n}\n");
    write("app/Page.tsx", 'export const Page = () => <p className="flex">Hello</p>;\n');
    const transform = createStyleTransform({ root, production: false });
    const counted = {
      ...transform,
      stylesheet: (file: string, options?: { changed?: string[] }) => {
        compiles.push(file);
        return transform.stylesheet(file, options);
      },
    };
    compiles = [];
    stylesheets = devStylesheets({ root, outDir: path.join(root, ".dev-build"), styles: { transform: counted, classes: new Map() } });
    await stylesheets.build(metafile);
    expect(compiles.map((item) => path.relative(root, item)).sort()).toEqual(["app/Card.module.css", "app/styles.css"]);
  });

  afterEach(() => {
    vi.restoreAllMocks();
    rmSync(root, { recursive: true, force: true });
  });

  it("compiles Tailwind's stylesheet again for a class new to a source it scans, once per save that adds one", async () => {
    const added = await save("app/Page.tsx", 'export const Page = () => <p className="flex tracking-[7px]">Hello</p>;\n');
    expect(added.compiled).toEqual(["app/styles.css"]);
    expect(tailwindCss(added.outputs)).toContain("letter-spacing: 7px");
    // Nothing the file did not have (Tailwind's scanner takes every word for a possible class): it stays as it is.
    expect((await save("app/Page.tsx", 'export const Page = () => <p className="tracking-[7px]">Hello</p>;\n')).compiled).toEqual([]);
    expect((await save("app/Page.tsx", 'export const Page = () => <p className="tracking-[8px]">Hello</p>;\n')).compiled).toEqual(["app/styles.css"]);
  });

  it("reads only the saved source for its new class: Tailwind's compiler is kept, the project not scanned again", async () => {
    const scans = vi.spyOn(Scanner.prototype, "scan");
    const added = await save("app/Page.tsx", 'export const Page = () => <p className="flex tracking-[9px]">Hello</p>;\n');
    expect(added.compiled).toEqual(["app/styles.css"]);
    expect(scans).not.toHaveBeenCalled();
    expect(tailwindCss(added.outputs)).toContain("letter-spacing: 9px");
    expect(tailwindCss(added.outputs)).toContain("display: flex");
    // A new file is not one it scanned: the project is scanned again, and its classes come too.
    write("app/Other.tsx", 'export const Other = () => <p className="tracking-[11px]">Hi</p>;\n');
    stylesheets.saved(["app/Other.tsx"]);
    const created = await save("app/Page.tsx", 'export const Page = () => <p className="tracking-[10px]">Hello</p>;\n');
    expect(scans).toHaveBeenCalledTimes(1);
    expect(tailwindCss(created.outputs)).toContain("letter-spacing: 11px");
    expect(tailwindCss(created.outputs)).toContain("letter-spacing: 10px");
  });

  it("compiles only a CSS Module saved, never Tailwind's stylesheet for it", async () => {
    const before = (await save("app/Page.tsx", 'export const Page = () => <p className="flex">Hello</p>;\n')).outputs;
    const { compiled, outputs } = await save("app/Card.module.css", ".card {\n  color: blue;\n}\n");
    expect(compiled).toEqual(["app/Card.module.css"]);
    expect(outputs.get("app/styles.css")).toBe(before.get("app/styles.css"));
    expect(outputs.get("app/Card.module.css")).not.toBe(before.get("app/Card.module.css"));
  });

  it("watches the sources Tailwind scans, not its own outputs or packages", () => {
    const inputs = stylesheets.inputs();
    expect(inputs).toEqual(expect.arrayContaining(["app/styles.css", "app/Card.module.css", "app/Page.tsx"]));
    expect(inputs.filter((file) => file.startsWith(".dev-build/") || file.includes("node_modules/"))).toEqual([]);
  });
});
