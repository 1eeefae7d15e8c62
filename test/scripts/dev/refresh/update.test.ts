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
      [
        "src/client/entry.tsx",
        "src/app/routes.ts",
        "src/diagnostics/routes.ts",
        "src/app/styles.css",
        "src/app/home/HomePage.tsx",
        "src/app/home/format.ts",
        "src/app/feedback/FeedbackPage.tsx",
      ].map((input) => [input, {}]),
    ),
    outputs: {
      // A route chunk's own stylesheet repeating the entry's (the root layout's does in development), listed first.
      [`${out}/chunks/FeedbackPage-${hash}.css`]: output(["src/app/styles.css"]),
      [`${out}/entry-${hash}.js`]: output(["src/client/entry.tsx", "src/app/routes.ts", "src/diagnostics/routes.ts", "src/app/styles.css"], {
        entryPoint: "src/client/entry.tsx",
        cssBundle: `${out}/entry-${hash}.css`,
        imports: [
          { path: `${out}/chunks/HomePage-${hash}.js`, kind: "dynamic-import" },
          { path: `${out}/chunks/FeedbackPage-${hash}.js`, kind: "dynamic-import" },
        ],
      }),
      [`${out}/entry-${hash}.js.map`]: output([]),
      [`${out}/entry-${hash}.css`]: output(["src/app/styles.css"]),
      [`${out}/chunks/HomePage-${hash}.js`]: output(["src/app/home/HomePage.tsx", "src/app/home/format.ts"], {
        entryPoint: "src/app/home/HomePage.tsx",
      }),
      [`${out}/chunks/FeedbackPage-${hash}.js`]: output(["src/app/feedback/FeedbackPage.tsx"], {
        entryPoint: "src/app/feedback/FeedbackPage.tsx",
        cssBundle: `${out}/chunks/FeedbackPage-${hash}.css`,
      }),
    },
  };
}

const server = { inputs: { "src/app/home/HomePage.tsx": {}, "src/app/home/HomePage.server.ts": {} }, outputs: {} };
const components = new Set(["src/app/home/HomePage.tsx"]);
const routeIds = new Map([
  ["src/app/home/HomePage.tsx", "home/HomePage"],
  ["src/app/feedback/FeedbackPage.tsx", "feedback/FeedbackPage"],
]);

/** `feedbackExports`: what FeedbackPage.tsx exports besides its component. */
function update(files: string[], { after = "B", feedbackExports = ["head"] } = {}) {
  const otherExports: Record<string, string[]> = { "src/app/home/format.ts": ["formatDate"], "src/app/feedback/FeedbackPage.tsx": feedbackExports };
  return describeUpdate({
    version: 7,
    files,
    before: { client: clientBuild("A") },
    after: { client: clientBuild(after), server },
    isBoundary: (file: string) => components.has(file),
    otherExports: (file: string) => (components.has(file) ? [] : (otherExports[file] ?? null)),
    routeIdOf: (file: string) => routeIds.get(file),
    routeTables: ["src/app/routes.ts", "src/diagnostics/routes.ts"],
    toUrl: (output: string) => output.replace(".dev-build/client", ""),
  });
}

describe("describeUpdate (what a rebuild means for open pages)", () => {
  it("re-imports the route chunk of a changed module that exports only components", () => {
    expect(update(["src/app/home/HomePage.tsx"])).toEqual({
      version: 7,
      modules: [{ id: "src/app/home/HomePage.tsx", url: "/assets/chunks/HomePage-B.js", route: "home/HomePage" }],
      styles: [],
      reload: false,
      revalidate: false,
      reasons: [],
    });
  });

  it("re-imports a route module that also exports head, errorHead or ErrorBoundary, naming its route", () => {
    const feedback = update(["src/app/feedback/FeedbackPage.tsx"], { feedbackExports: ["head", "errorHead", "ErrorBoundary"] });
    expect(feedback).toMatchObject({
      modules: [{ id: "src/app/feedback/FeedbackPage.tsx", url: "/assets/chunks/FeedbackPage-B.js", route: "feedback/FeedbackPage" }],
      reload: false,
    });
    expect(hasClientPart(feedback)).toBe(true);
  });

  it("reloads for an export the running page cannot use, and says which", () => {
    const feedback = update(["src/app/feedback/FeedbackPage.tsx"], { feedbackExports: ["head", "answer"] });
    expect(feedback.reload).toBe(true);
    expect(feedback.reasons).toEqual([expect.stringMatching(/^src\/app\/feedback\/FeedbackPage\.tsx exports `answer`, /)]);
  });

  it("reloads for a module with other exports, or one in the entry chunk, and says why", () => {
    expect(update(["src/app/home/format.ts"]).reasons).toEqual([expect.stringContaining("src/app/home/format.ts exports `formatDate`")]);
    expect(update(["src/client/entry.tsx"]).reasons).toEqual(["src/client/entry.tsx is part of a chunk a page loads once (the entry, or one several chunks share)"]);
    expect(update(["src/app/routes.ts"]).reasons).toEqual(["src/app/routes.ts: the route table changed"]);
    expect(update(["src/diagnostics/routes.ts"]).reasons).toEqual(["src/diagnostics/routes.ts: the route table changed"]);
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
