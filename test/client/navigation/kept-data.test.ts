import { describe, expect, it } from "vitest";
import { DataFreshness } from "#src/client/navigation/data-freshness";
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

describe("DataFreshness", () => {
  it("is stale from an invalidation until a request started after it is on screen", () => {
    const freshness = new DataFreshness();
    const before = freshness.generation;
    const generation = freshness.invalidate("action");
    expect(freshness.stale).toBe(true);
    // A request started before the action answered does not make the page fresh.
    freshness.committed(before);
    expect(freshness.stale).toBe(true);
    freshness.committed(generation);
    expect(freshness.stale).toBe(false);
    expect(freshness.freshAsOf).toBe(generation);
  });

  it("never goes back to an older generation, and names why the data is old", () => {
    const freshness = new DataFreshness();
    expect(freshness.causeOf(false)).toBe("navigation");
    expect(freshness.causeOf(true)).toBe("revalidate");
    const first = freshness.invalidate("revalidate");
    const second = freshness.invalidate("action");
    expect(freshness.causeOf(false)).toBe("action");
    freshness.committed(second);
    freshness.committed(first);
    expect(freshness.freshAsOf).toBe(second);
  });
});
