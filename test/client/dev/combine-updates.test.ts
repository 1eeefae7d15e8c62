import { describe, expect, it } from "vitest";
import { combineClientParts } from "#src/client/dev/combine-updates";
import type { HotUpdate } from "#src/shared/dev/hot-protocol";

const update = (version: number, part: Partial<HotUpdate>): HotUpdate => ({
  version,
  modules: [],
  styles: [],
  reload: false,
  revalidate: false,
  reasons: [],
  ...part,
});

describe("combineClientParts (updates a page missed, applied at once)", () => {
  it("keeps the latest chunk per route and chains a stylesheet's moves", () => {
    const combined = combineClientParts([
      update(1, { modules: [{ id: "home", url: "/a1.js" }], styles: [{ from: "/s0.css", to: "/s1.css" }] }),
      update(2, { modules: [{ id: "home", url: "/a2.js", route: "home/HomePage" }, { id: "other", url: "/b2.js" }] }),
      update(3, { styles: [{ from: "/s1.css", to: "/s3.css" }] }),
    ]);
    expect(combined).toEqual({
      modules: [
        { id: "home", url: "/a2.js", route: "home/HomePage" },
        { id: "other", url: "/b2.js" },
      ],
      styles: [{ from: "/s0.css", to: "/s3.css" }],
      reload: false,
      reasons: [],
    });
  });

  it("reloads if any of them must, and says why", () => {
    const combined = combineClientParts([update(1, {}), update(2, { reload: true, reasons: ["src/app/routes.ts: the route table changed"] })]);
    expect(combined.reload).toBe(true);
    expect(combined.reasons).toEqual(["src/app/routes.ts: the route table changed"]);
  });
});
