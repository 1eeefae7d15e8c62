import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { publicFileClashes } from "#src/server/public/public-shadowing";
import { defineApp, index, route } from "#src/shared/routing/config";
import { RouteTable } from "#src/shared/routing/route-table";
import { FIXTURE_APP, ROOT } from "../../support/paths";
import { memoryLogger, startTestApp } from "../../support/test-app";

const table = new RouteTable(
  defineApp({
    root: "Root.tsx",
    notFound: "NotFound.tsx",
    routes: [
      index("Home.tsx"),
      route("about", "About.tsx"),
      route("items/:id", "Item.tsx"),
      route("docs/*", "Docs.tsx"),
      route("admin", "Admin.tsx", [route("users", "Users.tsx")], { diagnostic: true }),
    ],
  }),
);
const paths = { assetPrefix: "/assets/", tunnelPath: "/monitoring" };

describe("a public file that clashes with the app's paths", () => {
  it.each([
    ["/about", "hides the route /about"],
    ["/admin/users", "hides the route /admin/users"],
    ["/__data", "hides the data endpoint /__data"],
    ["/__data/about", "hides the data endpoint /__data"],
    ["/assets/app.js", "the build's assets under /assets/"],
    ["/healthz", "the health probe /healthz"],
    ["/readyz", "the health probe /readyz"],
    ["/monitoring", "the Sentry tunnel (SENTRY_TUNNEL_PATH=/monitoring)"],
    ["/monitoring/envelope", "the Sentry tunnel"],
  ])("%s is an error naming both", (file, says) => {
    const { errors, warnings } = publicFileClashes([file], table, paths);
    expect(warnings).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`public file ${file} `);
    expect(errors[0]).toContain(says);
  });

  it("that takes one path of a route with parameters is a warning: the route keeps every other path", () => {
    expect(publicFileClashes(["/items/logo.png"], table, paths)).toEqual({
      errors: [],
      warnings: ["public file /items/logo.png hides the route /items/:id at that one path"],
    });
  });

  it.each([["/robots.txt"], ["/docs/guide.pdf"], ["/.well-known/security.txt"], ["/aboutus.txt"], ["/about/logo.png"], ["/monitor.txt"]])(
    "%s clashes with nothing (a catch-all takes only what nothing else does)",
    (file) => {
      expect(publicFileClashes([file], table, paths)).toEqual({ errors: [], warnings: [] });
    },
  );

  it("clashes with the tunnel only when the tunnel is on", () => {
    expect(publicFileClashes(["/monitoring/x"], table, { assetPrefix: "/assets/" })).toEqual({ errors: [], warnings: [] });
  });
});

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A folder under the checkout (the build takes its paths relative to it), removed after the tests. */
function scratch(name: string): string {
  const dir = mkdtempSync(path.join(ROOT, "node_modules", ".cache", `outpost-${name}-`));
  made.push(dir);
  return dir;
}

function publicFolder(files: Record<string, string>): string {
  const folder = scratch("public");
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    writeFileSync(path.join(folder, name), text);
  }
  return folder;
}

describe("at start", () => {
  it("a clash stops the app with an error naming both; a warning is logged", async () => {
    const folder = publicFolder({ "test/redirect": "x", "healthz": "x", "test/items/1.txt": "x" });
    await expect(startTestApp({}, { publicDir: folder })).rejects.toThrow(
      /public file \/healthz is never served: the health probe \/healthz[\s\S]*public file \/test\/redirect hides the route \/test\/redirect/,
    );
    const { logger, lines } = memoryLogger();
    const fine = publicFolder({ "test/items/1.txt": "x" });
    const app = await startTestApp({}, { publicDir: fine, logger });
    await app.close();
    expect(lines.filter((line) => line.level === 40).map((line) => line.msg)).toContain(
      "public file /test/items/1.txt hides the route /test/items/:id at that one path",
    );
  });
});

/** The build's public step alone, on a copy of the fixture app with this public folder. */
function buildPublic(files: Record<string, string>) {
  const appDir = scratch("app");
  cpSync(path.join(ROOT, FIXTURE_APP), appDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(appDir, "public", name)), { recursive: true });
    writeFileSync(path.join(appDir, "public", name), text);
  }
  const outDir = scratch("out");
  const run = spawnSync(
    process.execPath,
    ["--input-type=module", "-e", `import("./scripts/build/public-files.mjs").then((m) => m.copyPublicFiles(${JSON.stringify(outDir)}))`],
    { cwd: ROOT, env: { PATH: process.env.PATH, OUTPOST_APP_DIR: path.relative(ROOT, appDir) }, encoding: "utf8" },
  );
  return { ...run, outDir };
}

describe("at build", () => {
  it("a clash fails the build with an error naming both", () => {
    const run = buildPublic({ "items/1": "x", "long": "x", "__data/x.json": "{}" });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain("public file /long hides the route /long");
    expect(run.stderr).toContain("public file /__data/x.json hides the data endpoint /__data");
    expect(run.stderr).toContain("public file /items/1 hides the route /items/:id at that one path");
  });

  it("copies exactly what the server serves: no dotfiles, .well-known/ kept", () => {
    const run = buildPublic({ "robots.txt": "x", ".env": "SECRET=1", ".git/config": "x", ".well-known/security.txt": "x", "docs/.draft": "x" });
    expect(run.status).toBe(0);
    const copied = readdirSync(path.join(run.outDir, "public"), { recursive: true, encoding: "utf8" }).sort();
    expect(copied).toEqual([".well-known", ".well-known/security.txt", "robots.txt"]);
    expect(existsSync(path.join(run.outDir, "public", ".env"))).toBe(false);
  });
});
