import { describe, expect, it } from "vitest";
// @ts-expect-error: a dev script in plain JavaScript, without types
import { describeUpdate, hasClientPart } from "../../../../scripts/dev/refresh/update.mjs";

// A client build as esbuild's metafile describes it: the entry chunk (with the route table and a
// stylesheet, which is no code), and the home page's route module as a lazily imported chunk of its
// own; the feedback page's, with a CSS Module's class names.
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
        "src/app/feedback/Form.module.css",
      ].map((input) => [input, {}]),
    ),
    outputs: {
      [`${out}/entry-${hash}.js`]: output(["src/client/entry.tsx", "src/app/routes.ts", "src/diagnostics/routes.ts", "src/app/styles.css"], {
        entryPoint: "src/client/entry.tsx",
        imports: [
          { path: `${out}/chunks/HomePage-${hash}.js`, kind: "dynamic-import" },
          { path: `${out}/chunks/FeedbackPage-${hash}.js`, kind: "dynamic-import" },
        ],
      }),
      [`${out}/entry-${hash}.js.map`]: output([]),
      [`${out}/chunks/HomePage-${hash}.js`]: output(["src/app/home/HomePage.tsx", "src/app/home/format.ts"], {
        entryPoint: "src/app/home/HomePage.tsx",
      }),
      [`${out}/chunks/FeedbackPage-${hash}.js`]: output(["src/app/feedback/FeedbackPage.tsx", "src/app/feedback/Form.module.css"], {
        entryPoint: "src/app/feedback/FeedbackPage.tsx",
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

/** Each CSS file's stylesheet (scripts/build/css/stylesheets.mjs), by absolute path. */
function stylesheets(hashes: Record<string, string>) {
  return new Map(Object.entries(hashes).map(([name, hash]) => [`/project/src/app/${name}.css`, `.dev-build/client/assets/styles/app_${name.replace("/", "_")}-${hash}.css`]));
}
const STYLES_BEFORE = stylesheets({ styles: "A", "feedback/Form.module": "A" });

/** `feedbackExports`: what FeedbackPage.tsx exports besides its component; `styles`: the stylesheets after. */
function update(files: string[], { after = "B", feedbackExports = ["head"], styles = STYLES_BEFORE } = {}) {
  const otherExports: Record<string, string[]> = { "src/app/home/format.ts": ["formatDate"], "src/app/feedback/FeedbackPage.tsx": feedbackExports };
  return describeUpdate({
    version: 7,
    files,
    before: { client: clientBuild("A"), styles: STYLES_BEFORE },
    after: { client: clientBuild(after), server, styles },
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

  it("points a stylesheet whose file changed at its new file, whichever file's save changed it", () => {
    // A global stylesheet's code is nothing: its chunks are the same.
    const css = update(["src/app/styles.css"], { after: "A", styles: stylesheets({ styles: "B", "feedback/Form.module": "A" }) });
    expect(css).toMatchObject({ modules: [], reload: false, revalidate: false });
    expect(css.styles).toEqual([{ from: "/assets/styles/app_styles-A.css", to: "/assets/styles/app_styles-B.css" }]);
    expect(hasClientPart(css)).toBe(true);
    // Tailwind's stylesheet follows the sources it scans: a component's save changes it.
    const tailwind = update(["src/app/home/HomePage.tsx"], { styles: stylesheets({ styles: "C", "feedback/Form.module": "A" }) });
    expect(tailwind.styles).toEqual([{ from: "/assets/styles/app_styles-A.css", to: "/assets/styles/app_styles-C.css" }]);
    expect(tailwind.modules).toHaveLength(1);
  });

  it("re-imports the chunk of a CSS Module whose class names changed, as well as swapping its stylesheet", () => {
    const css = update(["src/app/feedback/Form.module.css"], { styles: stylesheets({ styles: "A", "feedback/Form.module": "B" }) });
    expect(css).toMatchObject({
      modules: [{ id: "src/app/feedback/FeedbackPage.tsx", url: "/assets/chunks/FeedbackPage-B.js", route: "feedback/FeedbackPage" }],
      styles: [{ from: "/assets/styles/app_feedback_Form.module-A.css", to: "/assets/styles/app_feedback_Form.module-B.css" }],
      reload: false,
    });
  });

  it("has the page re-fetch its state (and so its links) when a stylesheet is added or no longer imported", () => {
    const added = update(["src/app/home/HomePage.tsx"], { styles: stylesheets({ styles: "A", "feedback/Form.module": "A", "home/extra": "A" }) });
    expect(added).toMatchObject({ styles: [], reload: false, revalidate: true });
    const dropped = update(["src/app/feedback/FeedbackPage.tsx"], { styles: stylesheets({ styles: "A" }) });
    expect(dropped).toMatchObject({ styles: [], reload: false, revalidate: true });
  });

  it("re-fetches loader data for server-only code, and leaves the page alone for what no build reads", () => {
    expect(update(["src/app/home/HomePage.server.ts"])).toMatchObject({ modules: [], reload: false, revalidate: true });
    expect(update(["README.md"])).toMatchObject({ modules: [], styles: [], reload: false, revalidate: false });
  });

  it("skips a change esbuild printed the same (its chunk kept its name)", () => {
    expect(update(["src/app/home/HomePage.tsx"], { after: "A" })).toMatchObject({ modules: [], reload: false });
  });
});
