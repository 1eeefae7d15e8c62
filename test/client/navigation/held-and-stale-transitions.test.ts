import { describe, expect, it } from "vitest";
import { initialState, isStale } from "#src/client/navigation/core/router-store";
import * as transition from "#src/client/navigation/core/transitions";
import { dataCause } from "#src/client/navigation/should-revalidate";
import type { BlockerFunction } from "#src/shared/navigation/router-context";
import { UNBLOCKED } from "#src/shared/navigation/router-state";
import { HOME, stateFor } from "./support/fake-browser";

// The transitions of what the router keeps beside the page: the blocker's hold and the data's freshness.
const base = initialState(HOME, { pathname: "/", search: "", hash: "", state: null, key: "home" }, 0);
const held = { pathname: "/items/1", search: "", hash: "", state: null };
const resume = () => {};
const landing = (generation: number) => ({ page: stateFor("/items/:id", "Item", { id: "1" }), generation, inViewTransition: false });

describe("blocker transitions", () => {
  it("registerBlocker, unregisterBlocker: the one mounted last is asked; an older one's removal leaves it", () => {
    const first: BlockerFunction = () => true;
    const second: BlockerFunction = () => false;
    const both = transition.registerBlocker(transition.registerBlocker(base, first), second);
    expect(both.blocking.shouldBlock).toBe(second);
    expect(transition.unregisterBlocker(both, first)).toBe(both);
    expect(transition.unregisterBlocker(both, second).blocking.shouldBlock).toBeUndefined();
  });

  it("block, proceed, release: held with what proceed() runs, let through, free once it ended", () => {
    const blocked = transition.block(base, { location: held, resume });
    expect(blocked.blocker).toEqual({ state: "blocked", location: held });
    expect(blocked.blocking.held).toBe(resume);
    const proceeding = transition.proceed(blocked);
    expect(proceeding.blocker).toEqual({ state: "proceeding", location: held });
    expect(proceeding.blocking.held).toBeUndefined();
    expect(transition.release(proceeding).blocker).toBe(UNBLOCKED);
    // Release frees only a navigation let through; proceed needs one held.
    expect(transition.release(blocked)).toBe(blocked);
    expect(transition.proceed(base)).toBe(base);
  });

  it("unblock: a held or proceeding navigation is dropped; unblocked stays the same state", () => {
    const dropped = transition.unblock(transition.block(base, { location: held, resume }));
    expect([dropped.blocker, dropped.blocking.held]).toEqual([UNBLOCKED, undefined]);
    expect(transition.unblock(transition.proceed(transition.block(base, { location: held, resume }))).blocker).toBe(UNBLOCKED);
    expect(transition.unblock(base)).toBe(base);
  });

  it("expectOwnPop, popArrived: the popstate the router causes is known as its own until it arrives", () => {
    const restoring = transition.expectOwnPop(base, "restore");
    expect(restoring.blocking.ownPop).toBe("restore");
    expect(transition.expectOwnPop(restoring, "proceed").blocking.ownPop).toBe("proceed");
    expect(transition.popArrived(restoring).blocking.ownPop).toBeUndefined();
    // A visitor's own back/forward changes nothing: no listener is told.
    expect(transition.popArrived(base)).toBe(base);
  });
});

describe("data freshness", () => {
  it("invalidate: stale until a page whose request started after it has settled", () => {
    const before = base.invalidated;
    const invalidated = transition.invalidate(base, "action");
    expect(invalidated.invalidated).toBe(before + 1);
    expect(isStale(invalidated)).toBe(true);
    // A request started before the action answered does not make the page fresh.
    expect(isStale(transition.settle(invalidated, landing(before)))).toBe(true);
    const fresh = transition.settle(invalidated, landing(invalidated.invalidated));
    expect(isStale(fresh)).toBe(false);
    expect(fresh.freshAsOf).toBe(invalidated.invalidated);
  });

  it("names why the data is old: an action wins over revalidate()", () => {
    expect(dataCause(base, false)).toBe("navigation");
    expect(dataCause(base, true)).toBe("revalidate");
    const revalidated = transition.invalidate(base, "revalidate");
    expect(dataCause(revalidated, false)).toBe("revalidate");
    const acted = transition.invalidate(revalidated, "action");
    expect(dataCause(acted, true)).toBe("action");
    // Still stale from the action: a revalidate() does not hide it.
    expect(dataCause(transition.invalidate(acted, "revalidate"), false)).toBe("action");
    // Fresh again, the next cause is its own.
    const settled = transition.settle(acted, landing(acted.invalidated));
    expect(dataCause(transition.invalidate(settled, "revalidate"), false)).toBe("revalidate");
  });
});
