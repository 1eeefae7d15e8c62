import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { decode } from "@jridgewell/sourcemap-codec";
import { describe, expect, it } from "vitest";
import { loadEnv } from "#src/server/config/env.server";
import { sentryOptions } from "#src/server/monitoring/sentry-options";
import { productBuild } from "../support/builds";

// What start-up loads is decided by the server build (scripts/build/options.mjs) and by which
// imports in src/server are static: checked on the build the tests run against.
const SERVER = path.join(productBuild(), "server");
const read = (file: string) => readFileSync(path.join(SERVER, file), "utf8");

/** The files loaded with `file` before any dynamic import() runs. */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  seen.add(file);
  for (const [, specifier] of read(file).matchAll(/^(?:import|export)\s(?:[^;"']*?\sfrom\s)?"(\.[^"]+)"/gm)) {
    const next = path.join(path.dirname(file), specifier as string);
    if (!seen.has(next)) staticClosure(next, seen);
  }
  return seen;
}

/** esbuild's `// <path>` comment above each module it bundled (node_modules may be a symlink elsewhere). */
const bundledModules = (file: string) => [...read(file).matchAll(/^\/\/ (\S*node_modules\/\S+)$/gm)].map((match) => match[1] as string);
const bundledPackages = (file: string) =>
  new Set(bundledModules(file).map((module) => /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*\/node_modules\/)/.exec(module)?.[1] as string));
const serverFiles = () => readdirSync(SERVER, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js"));

describe("the server build", () => {
  it("loads neither Sentry's SDK nor the tunnel's HTTP client at start (they load only with a DSN)", () => {
    const atStart = new Set([...staticClosure("instrument.js"), ...staticClosure("index.js")]);
    const packages = new Set([...atStart].flatMap((file) => [...bundledPackages(file)]));
    expect(packages).toContain("koa");
    expect([...packages].filter((name) => name.startsWith("@sentry/") || name === "undici")).toEqual([]);
  });

  it("loads undici with the tunnel's first upstream request, not when the tunnel mounts", () => {
    const tunnel = serverFiles().find((file) => /^chunks\/tunnel-\w+\.js$/.test(file)) as string;
    const withTunnel = new Set([...staticClosure("index.js"), ...staticClosure(tunnel)]);
    expect([...withTunnel].some((file) => bundledPackages(file).has("undici"))).toBe(false);
    expect(serverFiles().some((file) => bundledPackages(file).has("undici"))).toBe(true);
  });

  it("enables source maps before anything else loads, and says the bundles are ES modules", () => {
    // instrument.ts turns source maps on, so what it loads must come after, through import().
    expect(staticClosure("instrument.js")).toEqual(new Set(["instrument.js"]));
    expect(read("instrument.js")).toMatch(/setSourceMapsEnabled\(true\)[\s\S]*import\(/);
    expect(JSON.parse(read("package.json"))).toEqual({ type: "module" });
  });

  it("loads the body parsers (koa-body, formidable and theirs) with the first POST body, not at start", () => {
    const atStart = new Set([...staticClosure("instrument.js"), ...staticClosure("index.js")]);
    const packages = new Set([...atStart].flatMap((file) => [...bundledPackages(file)]));
    expect([...packages].filter((name) => ["koa-body", "formidable", "co-body", "raw-body", "iconv-lite"].includes(name))).toEqual([]);
    // zod/mini and its English messages only: koa-body's full zod is its own copy (server-plugins.mjs).
    const zod = [...atStart].flatMap((file) => bundledModules(file)).filter((module) => module.includes("/zod/"));
    expect(zod.filter((module) => /\/zod\/v4\/(classic\/|locales\/(?!en\.js))/.test(module))).toEqual([]);
    expect(zod.some((module) => module.includes("/zod/v4/mini/"))).toBe(true);
  });

  it("ships Sentry's chunks without a source map, and lists in each map only the sources its mappings name", () => {
    // Node reads and line-indexes every map of a module as it loads (docs/decisions/0109-start-up-source-maps.md).
    const sentry = serverFiles().filter((file) => [...bundledPackages(file)].some((name) => name.startsWith("@sentry/")));
    expect(sentry.length).toBeGreaterThan(0);
    expect(sentry.filter((file) => existsSync(path.join(SERVER, `${file}.map`)) || read(file).includes("//# sourceMappingURL="))).toEqual([]);
    for (const file of serverFiles().filter((name) => existsSync(path.join(SERVER, `${name}.map`)))) {
      const map = JSON.parse(read(`${file}.map`)) as { sources: string[]; mappings: string };
      const named = new Set(decode(map.mappings).flatMap((line) => line.flatMap((segment) => (segment.length > 1 ? [segment[1]] : []))));
      expect({ file, unnamed: map.sources.filter((_, index) => !named.has(index)) }).toEqual({ file, unnamed: [] });
    }
  });

  it("bundles one copy of mime-db, parsed as JSON (scripts/build/server-plugins.mjs)", () => {
    const copies = serverFiles().flatMap((file) => bundledModules(file).filter((module) => module.endsWith("/mime-db/db.json")).map(() => file));
    expect(copies).toHaveLength(1);
    expect(read(copies[0] as string)).toMatch(/JSON\.parse\(/);
  });

  it("bundles @sentry/node and koa only while Sentry's load-time module hooks are off", () => {
    // Bundled, a package loads without those hooks ever seeing it: an integration relying on
    // them needs it and @sentry/* external (SERVER_EXTERNALS in scripts/build/options.mjs).
    const options = sentryOptions(loadEnv({ SENTRY_DSN: "https://key@o1.ingest.sentry.io/1" }));
    expect(options.enableRuntimeChannelInjection).toBe(false);
  });

  it("imports from node_modules only what the production image installs (react, react-dom, better-sqlite3)", () => {
    const files = serverFiles();
    const specifiers = (code: string) => [
      ...code.matchAll(/^(?:import|export)\s(?:[^;"']*?\sfrom\s)?"([^".][^"]*)"/gm),
      ...code.matchAll(/\bimport\("([^".][^"]*)"\)/g),
    ];
    const external = new Set(files.flatMap((file) => specifiers(read(file)).map((match) => match[1] as string)));
    const packages = [...external].filter((name) => !name.startsWith("node:")).map((name) => name.split("/")[0]);
    // pino-pretty: development logging only (src/server/logging/logger.ts), never in the image.
    // better-sqlite3: the tunnel spool's native addon, loaded with the tunnel only.
    expect(new Set(packages)).toEqual(new Set(["react", "react-dom", "pino-pretty", "better-sqlite3"]));
  });
});
