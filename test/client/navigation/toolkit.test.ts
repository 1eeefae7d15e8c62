import { describe, expect, it } from "vitest";
import { fakeBrowser, HOME, page, redirect, startRouter, until } from "./support/fake-browser";

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

// navigate() with its options, history moves, the blocker and view transitions, in the fake browser.
describe("navigate from code", () => {
  it("keeps the state in the history entry, back and forward included, and can leave the scroll alone", async () => {
    const browser = fakeBrowser();
    browser.answer("/items/1", page("1"));
    browser.answer("/", { kind: "state", build: "build-1", status: 200, state: HOME });
    const { router } = await startRouter(browser);
    await router.navigate("/items/1", { state: { from: "list" }, preventScrollReset: true });
    expect(router.state().location).toMatchObject({ pathname: "/items/1", state: { from: "list" } });
    expect(browser.log.scrolls).toEqual([]);
    router.go(-1);
    await until(router, (state) => state.location.pathname === "/" && state.navigation.state === "idle");
    expect(browser.log.moves).toEqual([-1]);
    expect(router.state().location.state).toBeNull();
    router.go(1);
    await until(router, (state) => state.location.pathname === "/items/1" && state.navigation.state === "idle");
    expect(router.state().location.state).toEqual({ from: "list" });
  });
});

describe("the blocker", () => {
  it("holds a navigation until reset (it never starts) or proceed (it goes on)", async () => {
    const browser = fakeBrowser();
    browser.answer("/items/1", page("1"));
    const { router } = await startRouter(browser);
    const asked: string[] = [];
    router.block(({ currentLocation, nextLocation, historyAction }) => {
      asked.push(`${currentLocation.pathname} -> ${nextLocation.pathname} (${historyAction})`);
      return true;
    });
    await router.navigate("/items/1");
    expect(asked).toEqual(["/ -> /items/1 (push)"]);
    expect(router.state().blocker).toMatchObject({ state: "blocked", location: { pathname: "/items/1" } });
    expect(browser.log.requests).toEqual([]);
    router.reset();
    expect(router.state().blocker.state).toBe("unblocked");
    expect(browser.path()).toBe("/");

    await router.navigate("/items/1");
    const states: string[] = [];
    router.subscribe(() => states.push(router.state().blocker.state));
    router.proceed();
    await until(router, (state) => state.location.pathname === "/items/1");
    expect(states[0]).toBe("proceeding");
    expect(router.state().blocker.state).toBe("unblocked");
    expect(browser.log.pushed).toEqual(["/items/1"]);
  });

  it("holds back: the URL is put back until proceed moves it again", async () => {
    const browser = fakeBrowser();
    browser.answer("/items/1", page("1"));
    browser.answer("/", { kind: "state", build: "build-1", status: 200, state: HOME });
    const { router } = await startRouter(browser);
    await router.navigate("/items/1");
    const stop = router.block(({ historyAction }) => historyAction === "pop");
    browser.back();
    expect(router.state().blocker).toMatchObject({ state: "blocked", location: { pathname: "/" } });
    expect(browser.log.moves).toEqual([1]);
    await tick();
    expect(browser.path()).toBe("/items/1");
    expect(router.state().location.pathname).toBe("/items/1");
    expect(browser.log.requests.map((request) => request.path)).toEqual(["/items/1"]);
    router.proceed();
    await until(router, (state) => state.location.pathname === "/" && state.blocker.state === "unblocked");
    expect(browser.log.moves).toEqual([1, -1]);
    expect(browser.path()).toBe("/");
    stop();
  });

  it("keeps counting entries right after a redirect met on back: the next back is held", async () => {
    const browser = fakeBrowser();
    browser.answer("/items/1", page("1"));
    browser.answer("/items/2", page("2"));
    const { router } = await startRouter(browser);
    await router.navigate("/items/1");
    await router.navigate("/items/2");
    // Back to /items/1, which now redirects (its session ended, say): the entry is replaced, and stays entry 1.
    browser.answer("/items/1", redirect("/items/3"));
    browser.answer("/items/3", page("3"));
    browser.back();
    await until(router, (state) => state.location.pathname === "/items/3" && state.navigation.state === "idle");
    expect(router.state().entryIndex).toBe(1);
    expect(browser.env.history.state).toMatchObject({ idx: 1 });
    router.go(1);
    await until(router, (state) => state.location.pathname === "/items/2" && state.navigation.state === "idle");
    expect(router.state().entryIndex).toBe(2);
    const stop = router.block(({ historyAction }) => historyAction === "pop");
    browser.back();
    expect(router.state().blocker).toMatchObject({ state: "blocked", location: { pathname: "/items/3" } });
    stop();
  });

  it("asks nothing once its function is removed", async () => {
    const browser = fakeBrowser();
    browser.answer("/items/1", page("1"));
    const { router } = await startRouter(browser);
    router.block(() => true)();
    await router.navigate("/items/1");
    expect(browser.path()).toBe("/items/1");
  });
});

describe("view transitions", () => {
  it("shows the page inside the browser's transition, flagged from the start until it finished", async () => {
    const browser = fakeBrowser();
    const transitions = browser.withViewTransitions();
    browser.answer("/items/1", "pending");
    const { router } = await startRouter(browser);
    const done = router.navigate("/items/1", { viewTransition: true });
    expect(router.state().viewTransition).toEqual({ from: "/", to: "/items/1" });
    await browser.requested(1);
    browser.log.requests[0]?.release(page("1"));
    await done;
    expect(transitions).toHaveLength(1);
    expect(router.state().location.pathname).toBe("/items/1");
    expect(router.state().viewTransition).not.toBeNull();
    transitions[0]?.();
    await tick();
    expect(router.state().viewTransition).toBeNull();
  });

  it("without the API (or without the option) navigates as before", async () => {
    const browser = fakeBrowser();
    browser.answer("/items/1", page("1"));
    browser.answer("/items/2", page("2"));
    const { router } = await startRouter(browser);
    await router.navigate("/items/1", { viewTransition: true });
    expect(router.state()).toMatchObject({ location: { pathname: "/items/1" }, viewTransition: null });
    const transitions = browser.withViewTransitions();
    await router.navigate("/items/2");
    expect(transitions).toEqual([]);
    expect(router.state().location.pathname).toBe("/items/2");
  });
});
