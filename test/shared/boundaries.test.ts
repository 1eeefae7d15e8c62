import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as sharedFace from "#outpost";
import * as serverFace from "#outpost/server";
import { ROOT } from "../support/paths";

const SHARED = path.join(ROOT, "src/shared");
// Static imports, type-only ones included, re-exports and dynamic imports: what makes one file depend on another.
const SPECIFIER = /(?:\bfrom|\bimport)\s*\(?\s*["']([^"']+)["']/g;

/** Each source file under src/shared with the project files it imports (relative specifiers, resolved without extension). */
function sharedImports(): Map<string, string[]> {
  const files = readdirSync(SHARED, { recursive: true, encoding: "utf8" }).filter((file) => /\.tsx?$/.test(file));
  return new Map(
    files.map((file) => {
      const absolute = path.join(SHARED, file);
      const targets = [...readFileSync(absolute, "utf8").matchAll(SPECIFIER)]
        .map((match) => match[1] ?? "")
        .filter((specifier) => specifier.startsWith("."))
        .map((specifier) => path.relative(ROOT, path.resolve(path.dirname(absolute), specifier)));
      return [path.relative(ROOT, absolute), targets];
    }),
  );
}

/** A file's folder directly under src/shared ("routing", "sentry"…), or "" for src/shared's own files. */
const folderOf = (file: string) => path.relative("src/shared", path.dirname(file)).split(path.sep)[0] ?? "";

describe("src/shared: code both sides run", () => {
  it("imports nothing from src/server or src/client", () => {
    const outside = [...sharedImports()].flatMap(([file, targets]) =>
      targets.filter((target) => /^src\/(server|client)\//.test(target)).map((target) => `${file} → ${target}`),
    );
    expect(outside).toEqual([]);
  });

  it("has no cycle between its folders", () => {
    const edges = new Map<string, Set<string>>();
    for (const [file, targets] of sharedImports()) {
      for (const target of targets.filter((each) => each.startsWith("src/shared/"))) {
        const [from, to] = [folderOf(file), folderOf(target)];
        if (from && to && from !== to) edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      [...(edges.get(from) ?? [])].some((next) => next === to || (!seen.has(next) && reaches(next, to, seen.add(next))));
    const cycles = [...edges].flatMap(([from, tos]) => [...tos].filter((to) => reaches(to, from)).map((to) => `${from} ↔ ${to}`));
    expect(cycles).toEqual([]);
  });
});

describe("the two faces", () => {
  it("share no export: a helper is either for both sides or for *.server.ts modules", () => {
    const shared = new Set(Object.keys(sharedFace));
    expect(Object.keys(serverFace).filter((name) => shared.has(name))).toEqual([]);
  });

  it("give the server-only helpers through #outpost/server alone", () => {
    const serverOnly = ["actionData", "defineSettings", "httpError", "notFound", "parseForm", "rateLimit", "redirect", "requestValue", "revalidatePath", "revalidateTag"];
    expect(Object.keys(serverFace)).toEqual(expect.arrayContaining(serverOnly));
    expect(Object.keys(sharedFace).filter((name) => serverOnly.includes(name))).toEqual([]);
  });
});
