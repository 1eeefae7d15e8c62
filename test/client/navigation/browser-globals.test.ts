import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths";

// The router reaches the browser through its environment only (core/environment.ts), so its unit
// tests run it against a fake one. A lexical check: a name counts as the global unless the file
// declares it (a parameter, a const) — a file that shadows a global cannot use it too.
const NAVIGATION = path.join(ROOT, "src/client/navigation");
const ENVIRONMENT = "core/environment.ts";
const GLOBALS = ["window", "document", "location", "history", "sessionStorage", "localStorage", "performance", "navigator", "requestAnimationFrame"];

const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

/** The globals a source reads: used where no dot, quote or word comes before, not as an object key, and not declared in the file. */
function browserGlobalsIn(source: string): string[] {
  const code = withoutComments(source);
  return GLOBALS.filter((name) => {
    const declared = new RegExp(
      `\\b(?:const|let|var|function)\\s+(?:\\{[^}]*\\b)?${name}\\b|[(,]\\s*${name}\\s*[:,)=?]|[(,]\\s*\\{[^}]*\\b${name}\\b[^}]*\\}\\s*:`,
    );
    if (declared.test(code)) return false;
    return new RegExp(`(?<![./\\w$"'\`])${name}\\b(?!\\s*:)`).test(code);
  });
}

describe("the browser router and its globals", () => {
  it("finds a global read, and not a property, a key, a string or a shadowing parameter", () => {
    expect(browserGlobalsIn("const at = performance.now();")).toEqual(["performance"]);
    expect(browserGlobalsIn("if (typeof window === 'undefined') return;")).toEqual(["window"]);
    expect(browserGlobalsIn("env.history.go(-1); const a = { location: 1 }; // document.title\nconst k = 'window';")).toEqual([]);
    expect(browserGlobalsIn("function focus(document: Doc) { document.body; }")).toEqual([]);
    expect(browserGlobalsIn('import { App } from "../document/App";\nexport function leave({ location }: Env) { location.reload(); }')).toEqual([]);
  });

  it("reads none outside core/environment.ts", () => {
    const files = readdirSync(NAVIGATION, { recursive: true, encoding: "utf8" }).filter((file) => /\.tsx?$/.test(file) && file !== ENVIRONMENT);
    expect(files.length).toBeGreaterThan(20);
    const reads = files.flatMap((file) => browserGlobalsIn(readFileSync(path.join(NAVIGATION, file), "utf8")).map((name) => `${file}: ${name}`));
    expect(reads).toEqual([]);
  });
});
