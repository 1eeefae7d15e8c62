import { describe, expect, it } from "vitest";
import { type BrowserRouterState, type FetcherRecord, initialState, RouterStore } from "#src/client/navigation/core/router-store";
import * as coreTransition from "#src/client/navigation/core/transitions";
import * as fetcherAnswer from "#src/client/navigation/fetchers/fetcher-answers";
import { IDLE_FETCHER, IDLE_NAVIGATION, UNBLOCKED } from "#src/shared/navigation/router-state";
import { HOME, stateFor } from "./support/fake-browser";

// A fetcher's answer's transitions are in its request's chunk, the others in the router's.
const transition = { ...coreTransition, ...fetcherAnswer };

// The router's named transitions, as pure functions of its state: no browser, no store.
const location = { pathname: "/", search: "", hash: "", state: null, key: "home" };
const base = initialState(HOME, location, 0);
const ITEM = stateFor("/items/:id", "Item", { id: "1" });
const itemLocation = { pathname: "/items/1", search: "", hash: "", state: null, key: "item" };
const held = { pathname: "/items/1", search: "", hash: "", state: null };
const hold = { location: held, resume: () => {} };
const withFetchers = (state: BrowserRouterState, entries: [string, FetcherRecord][]) => ({ ...state, fetchers: new Map(entries) });
const formData = () => {
  const data = new FormData();
  data.set("title", "Milk");
  return data;
};

describe("page transitions", () => {
  it("navigate: loading the location, revalidation off, the start and view transition when given", () => {
    const revalidating = { ...base, revalidation: "loading" as const };
    const next = transition.navigate(revalidating, { location: "/items/1?a=1", started: { pattern: "/items/:id" }, viewTransition: { from: "/", to: "/items/1" } });
    expect(next.navigation).toEqual({ state: "loading", location: "/items/1?a=1" });
    expect(next.revalidation).toBe("idle");
    expect(next.started).toEqual({ pattern: "/items/:id" });
    expect(next.viewTransition).toEqual({ from: "/", to: "/items/1" });
    // A redirect followed keeps the navigation's start and its view transition.
    const redirected = transition.navigate(next, { location: "/items/2" });
    expect(redirected.started).toBe(next.started);
    expect(redirected.viewTransition).toBe(next.viewTransition);
    expect(revalidating.navigation).toBe(IDLE_NAVIGATION);
  });

  it("revalidate: the loaders run again with no navigation", () => {
    const next = transition.revalidate(base);
    expect(next.revalidation).toBe("loading");
    expect(next.navigation).toBe(IDLE_NAVIGATION);
  });

  it("submit: submitting the form's data to its path", () => {
    const data = formData();
    const next = transition.submit({ ...base, revalidation: "loading" }, { path: "/items/1?x=1", formData: data });
    expect(next.navigation).toEqual({ state: "submitting", location: "/items/1?x=1", formMethod: "POST", formAction: "/items/1?x=1", formData: data });
    expect(next.revalidation).toBe("idle");
  });

  it("settle: the page and its location in one change; idle; a proceeding blocker freed; waiting fetchers idle", () => {
    const loading = transition.navigate(
      withFetchers({ ...base, blocker: { state: "proceeding", location: held } }, [
        ["done", { state: "loading", data: 1, error: undefined, formData: formData(), waitFor: 1 }],
        ["later", { state: "loading", data: 2, error: undefined, formData: formData(), waitFor: 2 }],
      ]),
      { location: "/items/1", viewTransition: { from: "/", to: "/items/1" } },
    );
    const moved = { location: itemLocation, historyAction: "push" as const, entryIndex: 1, preventScrollReset: true };
    const next = transition.settle(loading, { page: ITEM, moved, generation: 1, inViewTransition: false });
    expect(next.page).toBe(ITEM);
    expect(next.location).toBe(itemLocation);
    expect([next.historyAction, next.entryIndex, next.preventScrollReset]).toEqual(["push", 1, true]);
    expect(next.navigation).toBe(IDLE_NAVIGATION);
    expect(next.freshAsOf).toBe(1);
    expect(next.blocker).toBe(UNBLOCKED);
    expect(next.viewTransition).toBeNull();
    expect(next.fetchers.get("done")).toEqual({ state: "idle", data: 1, error: undefined, formData: undefined });
    expect(next.fetchers.get("later")?.state).toBe("loading");
    // Inside a view transition it stays on until the transition has finished.
    expect(transition.settle(loading, { page: ITEM, moved, generation: 1, inViewTransition: true }).viewTransition).toEqual({ from: "/", to: "/items/1" });
  });

  it("settle without moving (a revalidation): the location and a blocked blocker stay", () => {
    const blocked = transition.block(transition.revalidate(base), hold);
    const next = transition.settle(blocked, { page: ITEM, generation: 3, inViewTransition: false });
    expect(next.location).toBe(location);
    expect(next.entryIndex).toBe(0);
    expect(next.revalidation).toBe("idle");
    expect(next.blocker).toBe(blocked.blocker);
    expect(next.blocking).toBe(blocked.blocking);
    // No fetcher waited: the map is the same one, so useFetchers() does not re-render.
    expect(next.fetchers).toBe(blocked.fetchers);
  });

  it("settle: the data on screen never goes back to an older generation (a page whose request started earlier)", () => {
    expect(transition.settle({ ...base, freshAsOf: 2 }, { page: ITEM, generation: 1, inViewTransition: false }).freshAsOf).toBe(2);
  });

  it("fail: no page to show, the router is idle and any view transition off", () => {
    const loading = transition.navigate(base, { location: "/items/1", viewTransition: { from: "/", to: "/items/1" } });
    const next = transition.fail(loading);
    expect(next.navigation).toBe(IDLE_NAVIGATION);
    expect(next.viewTransition).toBeNull();
    expect(next.page).toBe(HOME);
    expect(transition.fail(transition.revalidate(base)).revalidation).toBe("idle");
  });

  it("popWithinPage: another fragment of the page on screen, reached by back/forward", () => {
    const hashed = { ...location, hash: "#top", key: "top" };
    const next = transition.popWithinPage({ ...base, historyAction: "push" }, { location: hashed, entryIndex: 4 });
    expect([next.location, next.historyAction, next.entryIndex]).toEqual([hashed, "pop", 4]);
    expect(next.page).toBe(HOME);
  });

  it("viewTransitionEnd: only the transition that is still running ends", () => {
    const running = { from: "/", to: "/items/1" };
    const state = { ...base, viewTransition: running };
    expect(transition.viewTransitionEnd(state, running).viewTransition).toBeNull();
    expect(transition.viewTransitionEnd(state, { from: "/", to: "/items/1" })).toBe(state);
    expect(transition.viewTransitionEnd(base, null)).toBe(base);
  });
});

describe("fetcher transitions", () => {
  it("fetcherStart: loading, or submitting with what it sends; what it had stays", () => {
    const data = formData();
    const had = withFetchers(base, [["k", { state: "idle", data: "old", error: undefined, formData: undefined, waitFor: 3 }]]);
    expect(transition.fetcherStart(had, "k", undefined).fetchers.get("k")).toEqual({ state: "loading", data: "old", error: undefined, formData: undefined, waitFor: undefined });
    expect(transition.fetcherStart(base, "new", data).fetchers.get("new")).toEqual({ ...IDLE_FETCHER, state: "submitting", formData: data, waitFor: undefined });
    expect(base.fetchers.size).toBe(0);
  });

  it("fetcherSettle: idle with its data, or loading until the page's data is as fresh as the action", () => {
    const data = formData();
    const submitting = transition.fetcherStart(base, "k", data);
    const error = { message: "no", status: 422 };
    expect(transition.fetcherSettle(submitting, "k", { data: 1, error, formData: data, waitFor: undefined }).fetchers.get("k")).toEqual({
      state: "idle",
      data: 1,
      error,
      formData: undefined,
    });
    expect(transition.fetcherSettle(submitting, "k", { data: 1, error: undefined, formData: data, waitFor: 1 }).fetchers.get("k")).toEqual({
      state: "loading",
      data: 1,
      error: undefined,
      formData: data,
      waitFor: 1,
    });
    // The page already shows data that fresh (a navigation landed first): idle at once.
    const fresh = { ...submitting, freshAsOf: 1 };
    expect(transition.fetcherSettle(fresh, "k", { data: 1, error: undefined, formData: data, waitFor: 1 }).fetchers.get("k")?.state).toBe("idle");
  });

  it("fetcherRedirect and fetcherFail: idle, without what was sent; a failure says so", () => {
    const submitting = transition.fetcherStart(withFetchers(base, [["k", { ...IDLE_FETCHER, data: "kept" }]]), "k", formData());
    expect(transition.fetcherRedirect(submitting, "k").fetchers.get("k")).toMatchObject({ state: "idle", data: "kept", formData: undefined, error: undefined });
    expect(transition.fetcherFail(submitting, "k").fetchers.get("k")).toMatchObject({ state: "idle", data: "kept", formData: undefined, error: { message: "the request failed" } });
  });

  it("fetcherDrop: the key's state is gone; an unknown key changes nothing", () => {
    const started = transition.fetcherStart(base, "k", undefined);
    expect(transition.fetcherDrop(started, "k").fetchers.has("k")).toBe(false);
    expect(transition.fetcherDrop(base, "k")).toBe(base);
  });
});

describe("the store", () => {
  it("applies a transition by name and tells each listener the state before; a transition that changes nothing tells none", () => {
    const store = new RouterStore(base);
    const seen: [BrowserRouterState, BrowserRouterState][] = [];
    store.subscribe((next, previous) => seen.push([next, previous]));
    store.apply(transition.unblock);
    expect(seen).toHaveLength(0);
    store.apply(transition.block, hold);
    expect(store.state.blocker.state).toBe("blocked");
    expect(seen).toEqual([[store.state, base]]);
  });
});
