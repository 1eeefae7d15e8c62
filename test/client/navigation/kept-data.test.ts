import { describe, expect, it } from "vitest";
import { withKeptData } from "#src/client/navigation/kept-data";
import type { RouteState } from "#src/shared/routing/route-state";

const state = (ids: string[], data: Record<string, unknown>): RouteState => ({
  pattern: "/x",
  matches: ids.map((id) => ({ id, params: {} })),
  data,
  styles: [],
});

describe("withKeptData", () => {
  const current = state(["root", "layout", "first"], { root: "old root", layout: "old layout", first: "old first" });

  it("takes the routes that were not asked for from the page on screen", () => {
    const next = state(["root", "layout", "second"], { second: "new second" });
    expect(withKeptData(next, current, ["second"]).data).toEqual({ root: "old root", layout: "old layout", second: "new second" });
  });

  it("keeps the answer as it is when every route was asked for", () => {
    const next = state(["root", "layout", "second"], { layout: "new layout", second: "new second" });
    expect(withKeptData(next, current, undefined)).toBe(next);
  });

  it("never keeps data of a route that answered, nor of one that was not on screen", () => {
    const next = state(["root", "other"], { root: "new root" });
    expect(withKeptData(next, current, []).data).toEqual({ root: "new root" });
  });
});
