import { describe, expect, it } from "vitest";
// @ts-expect-error: a dev script in plain JavaScript, without types
import { chunkAliases } from "../../../../scripts/dev/refresh/chunk-aliases.mjs";

const out = ".dev-build/client/assets";
const build = (hash: string) => ({
  inputs: {},
  outputs: {
    [`${out}/entry-${hash}.js`]: {
      inputs: {},
      entryPoint: "src/client/entry.tsx",
      imports: [{ path: `${out}/chunks/HomePage-${hash}.js`, kind: "dynamic-import" }],
    },
    [`${out}/chunks/HomePage-${hash}.js`]: { inputs: {}, entryPoint: "src/app/home/HomePage.tsx", imports: [] },
  },
});
const files = (hash: string) => ({
  [`/assets/entry-${hash}.js`]: `assets/entry-${hash}.js`,
  [`/assets/chunks/HomePage-${hash}.js`]: `assets/chunks/HomePage-${hash}.js`,
});

describe("chunkAliases (a route chunk's old URLs serve its current file)", () => {
  it("maps every earlier URL of a lazily imported chunk to its latest file, and nothing else", () => {
    const aliases = chunkAliases(".dev-build");
    expect(aliases(build("A"), files("A"))).toEqual({});
    expect(aliases(build("B"), files("B"))).toEqual({ "/assets/chunks/HomePage-A.js": "assets/chunks/HomePage-B.js" });
    expect(aliases(build("C"), files("C"))).toEqual({
      "/assets/chunks/HomePage-A.js": "assets/chunks/HomePage-C.js",
      "/assets/chunks/HomePage-B.js": "assets/chunks/HomePage-C.js",
    });
  });
});
