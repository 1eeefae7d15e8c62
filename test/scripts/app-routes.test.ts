import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as esbuild from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a build script in plain JavaScript, without types
import { appRoutesPlugin, routeIdOfSource } from "../../scripts/build/app-routes.mjs";
// @ts-expect-error: as above
import { clientOptions } from "../../scripts/build/options.mjs";
import { productBuild } from "../support/builds";
import { ROOT } from "../support/paths";

const scratch = mkdtempSync(path.join(tmpdir(), "outpost-routes-"));
writeFileSync(path.join(scratch, "secrets.server.ts"), "export const key = 'secret';\n");
// The project's sources and its two faces, so that the scratch modules resolve `#outpost` and `#outpost/server` as the app's do.
symlinkSync(path.join(ROOT, "src"), path.join(scratch, "src"));
writeFileSync(path.join(scratch, "package.json"), JSON.stringify({ imports: JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).imports }));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Bundles `source` for the browser with the route plugin; resolves with esbuild's error texts. */
async function clientBuildErrors(source: string): Promise<string[]> {
  const entry = path.join(scratch, `entry-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(entry, source);
  try {
    await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      logLevel: "silent",
      // The project's `#src/*` paths.
      tsconfig: path.join(ROOT, "tsconfig.json"),
      plugins: [appRoutesPlugin({ root: ROOT, appDir: "src/app", target: "client" })],
    });
    return [];
  } catch (error) {
    return ((error as esbuild.BuildFailure).errors ?? []).map((message) => message.text);
  }
}

describe("route ids of the build's sources", () => {
  it("name a module by its file under the app's folder, or the diagnostics' under src/", () => {
    expect(routeIdOfSource("src/app", "src/app/home/HomePage.tsx")).toBe("home/HomePage");
    expect(routeIdOfSource("test/fixtures/app/", "test/fixtures/app/Home.tsx")).toBe("Home");
    expect(routeIdOfSource("src/app", "src/diagnostics/guarded/GuardedInner.tsx")).toBe("diagnostics/guarded/GuardedInner");
    expect(routeIdOfSource("src/app", "src/client/start.tsx")).toBeUndefined();
  });
});

describe("server-only code and the browser bundle", () => {
  it("leaves every loader out of the client build", async () => {
    const { metafile } = await esbuild.build({ ...clientOptions({ outDir: path.join(scratch, "out"), production: true }), write: false });
    const inputs = Object.keys(metafile?.inputs ?? {});
    expect(inputs.some((input) => input.startsWith("src/app/"))).toBe(true);
    // The platform's diagnostics, mounted beside the app's routes, from their own folder.
    expect(inputs).toContain("src/diagnostics/FormPage.tsx");
    expect(inputs.filter((input) => /\.server\.|src\/server\//.test(input))).toEqual([]);
  });

  it("serves no file holding the diagnostics loader's message", () => {
    const dist = productBuild();
    const clientDir = path.join(dist, "client");
    const files = readdirSync(clientDir, { recursive: true, encoding: "utf8" }).filter((file) => /\.(js|css|map)$/.test(file));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) expect(readFileSync(path.join(clientDir, file), "utf8")).not.toContain("diagnostic server error");
    // The server build does hold it: the search itself works.
    const server = readdirSync(path.join(dist, "server"), { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js"));
    expect(server.some((file) => readFileSync(path.join(dist, "server", file), "utf8").includes("diagnostic server error"))).toBe(true);
  });

  it("fails a client build that imports a *.server module, naming the importer", async () => {
    const errors = await clientBuildErrors('import { key } from "./secrets.server";\nconsole.log(key);\n');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/entry-\w+\.ts imports \.\/secrets\.server, which is server-only/);
  });

  it("fails a client build that imports from src/server", async () => {
    const logger = path.relative(scratch, path.join(ROOT, "src/server/logging/logger"));
    const errors = await clientBuildErrors(`import { createLogger } from ${JSON.stringify(logger)};\nconsole.log(createLogger);\n`);
    expect(errors[0]).toMatch(/server-only/);
  });

  it("fails a client build whose module imports the server face, naming that module", async () => {
    writeFileSync(path.join(scratch, "LimitedWidget.tsx"), 'import { rateLimit } from "#outpost/server";\nexport const limit = rateLimit;\n');
    const errors = await clientBuildErrors('import { limit } from "./LimitedWidget";\nconsole.log(limit);\n');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/LimitedWidget\.tsx imports #outpost\/server, which is server-only/);
  });

  it("fails a client build that imports src/server through the #src alias, naming the importer", async () => {
    const errors = await clientBuildErrors('import { createLogger } from "#src/server/logger";\nconsole.log(createLogger);\n');
    expect(errors[0]).toMatch(/entry-\w+\.ts imports #src\/server\/logger, which is server-only/);
  });

  it("lets a browser module import the shared face", async () => {
    expect(await clientBuildErrors('import { href } from "#outpost";\nconsole.log(href);\n')).toEqual([]);
  });

  it("accepts type-only imports of a server half, which disappear from the bundle", async () => {
    expect(await clientBuildErrors('import type { key } from "./secrets.server";\nexport const x: typeof key = "a";\n')).toEqual([]);
  });
});
