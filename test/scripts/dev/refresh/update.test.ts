import { describe, expect, it } from "vitest";
// @ts-expect-error: a dev script in plain JavaScript, without types
import { describeUpdate, hasClientPart } from "../../../../scripts/dev/refresh/update.mjs";

// A client build as esbuild's metafile describes it: the entry chunk (with the route table and
// the stylesheet), and the home page's route module as a lazily imported chunk of its own.
function clientBuild(hash: string) {
  const out = ".dev-build/client/assets";
  const output = (inputs: string[], more = {}) => ({
    inputs: Object.fromEntries(inputs.map((input) => [input, { bytesInOutput: 1 }])),
    imports: [] as { path: string; kind: string }[],
    ...more,
  });
  return {
    inputs: Object.fromEntries(
      ["src/client/entry.tsx", "src/app/styles.css", "src/app/home/HomePage.tsx", "src/app/home/format.ts"].map((input) => [input, {}]),
    ),
    outputs: {
      [`${out}/entry-${hash}.js`]: output(["src/client/entry.tsx", "src/app/styles.css"], {
        entryPoint: "src/client/entry.tsx",
        cssBundle: `${out}/entry-${hash}.css`,
        imports: [{ path: `${out}/chunks/HomePage-${hash}.js`, kind: "dynamic-import" }],
      }),
      [`${out}/entry-${hash}.js.map`]: output([]),
      [`${out}/entry-${hash}.css`]: output(["src/app/styles.css"]),
      [`${out}/chunks/HomePage-${hash}.js`]: output(["src/app/home/HomePage.tsx", "src/app/home/format.ts"], {
        entryPoint: "src/app/home/HomePage.tsx",
      }),
    },
  };
}

const server = { inputs: { "src/app/home/HomePage.tsx": {}, "src/app/home/HomePage.server.ts": {} }, outputs: {} };
const components = new Set(["src/app/home/HomePage.tsx"]);

function update(files: string[], { after = "B" } = {}) {
  return describeUpdate({
    version: 7,
    files,
    before: { client: clientBuild("A") },
    after: { client: clientBuild(after), server },
    isBoundary: (file: string) => components.has(file),
    toUrl: (output: string) => output.replace(".dev-build/client", ""),
  });
}

describe("describeUpdate (what a rebuild means for open pages)", () => {
  it("re-imports the route chunk of a changed module that exports only components", () => {
    expect(update(["src/app/home/HomePage.tsx"])).toEqual({
      version: 7,
      modules: [{ id: "src/app/home/HomePage.tsx", url: "/assets/chunks/HomePage-B.js" }],
      styles: [],
      reload: false,
      revalidate: false,
    });
  });

  it("reloads for a module with other exports, or one in the entry chunk", () => {
    expect(update(["src/app/home/format.ts"]).reload).toBe(true);
    expect(update(["src/client/entry.tsx"]).reload).toBe(true);
    expect(hasClientPart(update(["src/app/home/HomePage.tsx", "src/app/home/format.ts"]))).toBe(false);
  });

  it("points the stylesheet at its new file", () => {
    const css = update(["src/app/styles.css"]);
    expect(css.styles).toEqual([{ from: "/assets/entry-A.css", to: "/assets/entry-B.css" }]);
    expect(css.reload).toBe(false);
    expect(hasClientPart(css)).toBe(true);
  });

  it("re-fetches loader data for server-only code, and leaves the page alone for what no build reads", () => {
    expect(update(["src/app/home/HomePage.server.ts"])).toMatchObject({ modules: [], reload: false, revalidate: true });
    expect(update(["README.md"])).toMatchObject({ modules: [], styles: [], reload: false, revalidate: false });
  });

  it("skips a change esbuild printed the same (its chunk kept its name)", () => {
    expect(update(["src/app/home/HomePage.tsx"], { after: "A" })).toMatchObject({ modules: [], reload: false });
  });
});
