import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DIST } from "../support/paths";

// Fast Refresh is for `npm run dev` only: what `npm run build` ships (built once for the test
// run by test/support/global-setup.ts) has no refresh runtime, registration calls or hot client.
describe("the production client bundle", () => {
  const scripts = readdirSync(path.join(DIST, "client"), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".js"))
    .map((file) => ({ file, code: readFileSync(path.join(DIST, "client", file), "utf8") }));

  it("has scripts to look at", () => {
    expect(scripts.length).toBeGreaterThan(1);
  });

  it.each([
    ["registration calls", "$RefreshReg$"],
    ["signature calls", "$RefreshSig$"],
    ["the refresh runtime", "injectIntoGlobalHook"],
    ["the refresh runtime's updates", "performReactRefresh"],
    ["the hot client's event stream", "/__dev/reload"],
    ["the error overlay", "outpost-dev-overlay"],
    ["the dev error hooks", "outpost:dev-error"],
  ])("contains no %s", (_what, text) => {
    expect(scripts.filter(({ code }) => code.includes(text)).map(({ file }) => file)).toEqual([]);
  });
});
