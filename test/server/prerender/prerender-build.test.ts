import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURE_APP, ROOT } from "../../support/paths";

// Three levels below ROOT, like test/fixtures/app, so the copy's `../../../src/...` imports resolve.
const folder = path.join("dist", `prerender-${process.pid}-${Date.now().toString(36)}`);
afterAll(() => rmSync(path.join(ROOT, folder), { recursive: true, force: true }));

/** Builds a copy of the fixture app with one more page, `/reads`, whose prerendered loader is `loader`. */
function buildWithPage(name: string, loader: string): { status: number | null; output: string; outDir: string } {
  const appDir = path.join(folder, name);
  const outDir = path.join(folder, `${name}-build`);
  cpSync(path.join(ROOT, FIXTURE_APP), path.join(ROOT, appDir), { recursive: true });
  const routes = path.join(ROOT, appDir, "routes.ts");
  writeFileSync(routes, readFileSync(routes, "utf8").replace('route("long", "Long.tsx"),', 'route("long", "Long.tsx"),\n    route("reads", "Reads.tsx"),'));
  writeFileSync(path.join(ROOT, appDir, "Reads.tsx"), "export default function Reads() {\n  return <p>reads</p>;\n}\n");
  writeFileSync(path.join(ROOT, appDir, "Reads.server.ts"), `export const prerender = true;\nexport function load(context: any) {\n  ${loader}\n}\n`);
  const result = spawnSync(process.execPath, ["scripts/build.mjs"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, OUTPOST_APP_DIR: appDir, OUTPOST_OUT_DIR: outDir },
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}`, outDir: path.join(ROOT, outDir) };
}

describe("the build's prerender run", () => {
  it("fails the build, naming the route and what it read, when a prerendered loader reads a cookie", () => {
    const { status, output, outDir } = buildWithPage("cookie", 'return { who: context.cookies.get("who") ?? null };');
    expect(status).toBe(1);
    expect(output).toContain("route /reads is prerendered but its code read cookies at build");
    // No manifest: no server starts on a build that failed.
    expect(existsSync(path.join(outDir, "manifest.json"))).toBe(false);
  }, 60_000);

  it("fails the build on a header or the query, and prints each URL it prerendered with a count when none fails", () => {
    const header = buildWithPage("header", 'return { agent: context.header("user-agent") };');
    expect(header.status).toBe(1);
    expect(header.output).toContain("route /reads is prerendered but its code read the user-agent header at build");
    const query = buildWithPage("query", 'return { page: context.url.searchParams.get("page") };');
    expect(query.status).toBe(1);
    expect(query.output).toContain("route /reads is prerendered but its code read the query (url.searchParams) at build");
    const fine = buildWithPage("fine", 'return { path: context.url.pathname, params: context.params };');
    expect(fine.status).toBe(0);
    expect(fine.output).toMatch(/prerendered \/reads\n/);
    expect(fine.output).toContain("prerendered /static/first (/static/:slug)");
    expect(fine.output).toContain("prerendered 4 pages");
  }, 120_000);
});
