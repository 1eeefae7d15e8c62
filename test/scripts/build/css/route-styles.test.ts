import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as esbuild from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeStylesheets } from "../../../../scripts/build/css/route-styles.mjs";
import { styleImportsPlugin } from "../../../../scripts/build/css/style-imports-plugin.mjs";
import { createStyleTransform } from "../../../../scripts/build/css/style-transform.mjs";
import type { BuildManifest } from "#src/server/assets/manifest";
import { routeAssets } from "#src/server/render/route-assets";
import type { RouteMatch } from "#src/shared/routing/route-table";

/** A small app's sources: an entry that loads each route module lazily, as the browser build's does. */
const SOURCES: Record<string, string> = {
  "entry.tsx":
    'import "./entry.css";\nexport const routes = { Root: () => import("./Root.tsx"), Layout: () => import("./Layout.tsx"), Page: () => import("./Page.tsx"), Other: () => import("./Other.tsx") };\n',
  "Root.tsx": 'import "./root.css";\nimport "./shared.css";\nexport default "root";\n',
  "Layout.tsx": 'import "./layout.css";\nimport { helper } from "./helper.ts";\nexport default helper;\n',
  "helper.ts": 'import "./helper.css";\nimport "./layout.css";\nexport const helper = "helper";\n',
  "Page.tsx": [
    'import "./page-first.css";',
    'import card from "./Card.module.css";',
    'import "./shared.css";',
    'import { other } from "./Other.tsx";',
    'import "./page-last.css";',
    'const lazy = () => import("./Lazy.tsx");',
    "export default [card, other, lazy];",
    "",
  ].join("\n"),
  "Lazy.tsx": 'import "./lazy.css";\nimport "./page-first.css";\nexport default "lazy";\n',
  "Other.tsx": 'import "./other.css";\nexport const other = "other";\nexport default other;\n',
  "Card.module.css": '.card {\n  composes: surface from "./Base.module.css";\n}\n',
  "Base.module.css": ".surface {\n  color: red;\n}\n",
};
for (const name of ["entry", "root", "shared", "layout", "helper", "page-first", "page-last", "lazy", "other"]) {
  SOURCES[`${name}.css`] = `.${name} {\n  color: red;\n}\n`;
}
const ROUTE_MODULES = new Map(["Root", "Layout", "Page", "Other"].map((id) => [id, `${id}.tsx`]));

// Which stylesheets each route links, read from the browser build's import graph (here a real
// esbuild build of a small app with code splitting, as the production build makes).
describe("each route's stylesheets", () => {
  let root: string;
  let styles: { entry: string[]; routes: Record<string, string[]> };

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), "outpost-route-styles-"));
    for (const [file, text] of Object.entries(SOURCES)) writeFileSync(path.join(root, file), text);
    const result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: ["entry.tsx"],
      bundle: true,
      splitting: true,
      format: "esm",
      outdir: "out",
      write: false,
      metafile: true,
      logLevel: "silent",
      plugins: [styleImportsPlugin({ transform: createStyleTransform({ root, production: true }) })],
    });
    styles = routeStylesheets(result.metafile, { entry: "entry.tsx", routeModules: ROUTE_MODULES });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("gives the entry its own, not the routes' it loads lazily", () => {
    expect(styles.entry).toEqual(["entry.css"]);
  });

  it("lists a module's in import order, through the modules it imports, each file once", () => {
    expect(styles.routes.Root).toEqual(["root.css", "shared.css"]);
    expect(styles.routes.Layout).toEqual(["layout.css", "helper.css"]);
  });

  it("puts a composed-from module before its composer, includes a lazily imported component's, and never crosses into another route module", () => {
    expect(styles.routes.Page).toEqual(["page-first.css", "Base.module.css", "Card.module.css", "shared.css", "page-last.css", "lazy.css"]);
    expect(styles.routes.Other).toEqual(["other.css"]);
  });

  it("links a chain's in a fixed order, the entry's, then the root layout's, the layout's and the page's, each once", () => {
    const manifest: BuildManifest = {
      buildId: "test",
      entry: { script: "/assets/entry.js", styles: styles.entry, modulePreloads: [] },
      routes: Object.fromEntries(Object.entries(styles.routes).map(([id, list]) => [id, { imports: [], styles: list }])),
      files: {},
    };
    const matches = ["Root", "Layout", "Page"].map((id) => ({ id }) as RouteMatch);
    expect(routeAssets(manifest)(matches).styles).toEqual([
      "entry.css",
      "root.css",
      "shared.css",
      "layout.css",
      "helper.css",
      "page-first.css",
      "Base.module.css",
      "Card.module.css",
      "page-last.css",
      "lazy.css",
    ]);
  });
});
