import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { productBuild } from "../support/builds";

const DIST = productBuild();

function clientScripts(): { file: string; code: string }[] {
  return readdirSync(path.join(DIST, "client"), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".js"))
    .map((file) => ({ file, code: readFileSync(path.join(DIST, "client", file), "utf8") }));
}

// Fast Refresh is for `npm run dev` only: what `npm run build` ships (built once for the test
// run by test/support/builds.ts) has no refresh runtime, registration calls or hot client.
describe("the production client bundle", () => {
  const scripts = clientScripts();

  it("has scripts to look at", () => {
    expect(scripts.length).toBeGreaterThan(1);
  });

  it.each([
    ["registration calls", "$RefreshReg$"],
    ["signature calls", "$RefreshSig$"],
    ["the refresh runtime", "injectIntoGlobalHook"],
    ["the refresh runtime's updates", "performReactRefresh"],
    ["the hot client's event stream", "/__dev/reload"],
    ["the error overlay", "outpost-dev-overlay"],
    ["the dev error hooks", "outpost:dev-error"],
  ])("contains no %s", (_what, text) => {
    expect(scripts.filter(({ code }) => code.includes(text)).map(({ file }) => file)).toEqual([]);
  });
});

// scripts/build/app-chunk.mjs: every lazily loaded chunk imports the app's module, so the
// entry's code is one chunk rather than a dozen small ones, each compressed on its own.
describe("the production client build's chunks", () => {
  const manifest = JSON.parse(readFileSync(path.join(DIST, "manifest.json"), "utf8")) as {
    entry: { modulePreloads: string[] };
    routes: Record<string, { script?: string; imports: string[]; styles: string[] }>;
    files: Record<string, string>;
  };

  it("holds the app's code in one chunk, which the entry and every route's chunk import", () => {
    expect(manifest.entry.modulePreloads).toHaveLength(1);
    const [app] = manifest.entry.modulePreloads;
    expect(Object.keys(manifest.routes).length).toBeGreaterThan(5);
    // The root layout is part of the entry: it has stylesheets but no chunk of its own.
    for (const [id, route] of Object.entries(manifest.routes)) if (route.script) expect(route.imports, id).toContain(app);
    expect(Object.values(manifest.routes).filter((route) => !route.script)).toHaveLength(1);
  });

  it("leaves the diagnostics' routes out of that chunk: a server that serves them has the browser load them", () => {
    const app = readFileSync(path.join(DIST, "client", manifest.files[manifest.entry.modulePreloads[0] as string] as string), "utf8");
    expect(app).toContain('"home/HomePage"');
    expect(app).not.toContain('"diagnostics/FormPage"');
    const withDiagnostics = clientScripts().filter(({ code }) => code.includes('"diagnostics/FormPage"') && code.includes('"home/HomePage"'));
    expect(withDiagnostics.map(({ file }) => file)).toHaveLength(1);
  });

  // scripts/build/outpost-imports.mjs: the root layout's `import { Link } from "#outpost"` no
  // longer brings every hook the barrel re-exports into that chunk.
  it.each([
    ["<Form>'s submission", "multipart/form-data"],
    ["useBeforeUnload", "beforeunload"],
    ["the deferred values' decoder", "OutpostDeferredError"],
    // page-landing.ts (decision 0112): fetched as the first page request starts.
    ["a commit's history entry", "pushState"],
    ["the next page's stylesheet prefetches", "[rel=stylesheet],[as=style]"],
  ])("leaves out %s, which only lazily loaded code uses", (_what, text) => {
    const app = readFileSync(path.join(DIST, "client", manifest.files[manifest.entry.modulePreloads[0] as string] as string), "utf8");
    expect(app).not.toContain(text);
    expect(clientScripts().some(({ code }) => code.includes(text))).toBe(true);
  });

  // Decision 0112: React's licence headers are a file beside the chunk, which names it.
  it("links React's licence from that chunk to a served file instead of inlining it", () => {
    const url = manifest.entry.modulePreloads[0] as string;
    const app = readFileSync(path.join(DIST, "client", manifest.files[url] as string), "utf8");
    expect(app).not.toContain("@license React");
    expect(app).toContain(`For license information please see ${url}.LEGAL.txt`);
    const legal = manifest.files[`${url}.LEGAL.txt`];
    expect(legal).toBeDefined();
    expect(readFileSync(path.join(DIST, "client", legal as string), "utf8")).toContain("@license React");
  });

  it("gives that chunk the debug id Sentry symbolicates its frames with", () => {
    const app = manifest.files[manifest.entry.modulePreloads[0] as string] as string;
    expect(readFileSync(path.join(DIST, "client", app), "utf8")).toMatch(/\n\/\/# debugId=[0-9a-f-]{36}\s*$/);
  });

  // One stylesheet per CSS file (decision 0102): the entry holds none, the root layout links the
  // product's styles.css, and no other route of the product imports CSS.
  it("links each route's own stylesheets, not one bundle in the entry", () => {
    expect(manifest.entry).not.toHaveProperty("styles.0");
    const styled = Object.entries(manifest.routes).filter(([, route]) => route.styles.length > 0);
    expect(styled.map(([id]) => id)).toEqual(["root/RootLayout"]);
    expect(styled[0]?.[1].styles).toEqual([expect.stringMatching(/^\/assets\/styles\/app_styles-[A-Z0-9]{8}\.css$/)]);
  });
});
