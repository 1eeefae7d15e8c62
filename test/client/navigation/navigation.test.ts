import { afterEach, describe, expect, it, vi } from "vitest";
import { onNavigation } from "#src/client/navigation/core/navigation-events";
import type { RouteModule } from "#src/shared/routing/module";
import { BUILD, fakeBrowser, HOME, ORIGIN, page, redirect, startRouter, until } from "./support/fake-browser";

// The browser router in a fake browser (its injected environment): navigation state, history,
// redirects and deploy skew as units; test/e2e covers the same in Chromium.
describe("navigation", () => {
  afterEach(() => vi.restoreAllMocks());

  it("a link is loading, then idle on the new page, with one history entry", async () => {
    const browser = fakeBrowser();
    browser.answer("/items/1", page("1"));
    const { router, seen } = await startRouter(browser);
    const done = router.navigate("/items/1");
    expect(router.state().navigation).toEqual({ state: "loading", location: "/items/1" });
    expect(browser.dataset.navigating).toBe("true");
    await done;
    expect(seen).toEqual(["loading", "idle"]);
    expect(router.state().page.matches.at(-1)).toMatchObject({ id: "Item", params: { id: "1" } });
    expect(router.state().location).toMatchObject({ pathname: "/items/1", search: "", hash: "" });
    expect(router.state().historyAction).toBe("push");
    expect(browser.log.pushed).toEqual(["/items/1"]);
    expect(browser.dataset.navigating).toBeUndefined();
    expect(browser.log.fullLoads).toEqual([]);
  });

  it("the newest navigation wins: the superseded request is aborted and its answer never shown", async () => {
    const browser = fakeBrowser();
    browser.answer("/items/slow", "pending");
    browser.answer("/items/fast", page("fast"));
    const { router } = await startRouter(browser);
    const slow = router.navigate("/items/slow");
    await router.navigate("/items/fast");
    const [first] = browser.log.requests;
    expect(first?.signal?.aborted).toBe(true);
    first?.release(page("slow"));
    await slow;
    expect(router.state().page.matches.at(-1)?.params).toEqual({ id: "fast" });
    expect(browser.path()).toBe("/items/fast");
    expect(browser.log.fullLoads).toEqual([]);
  });

  it("a link to a resource route loads it as a document, another origin too", async () => {
    const browser = fakeBrowser();
    const { router } = await startRouter(browser);
    await router.navigate("/api");
    await router.navigate("https://elsewhere.example/x");
    expect(browser.log.requests).toEqual([]);
    expect(browser.log.fullLoads).toEqual([`${ORIGIN}/api`, "https://elsewhere.example/x"]);
  });

  it("emits start as the browser matched the route and end as the server answered", async () => {
    const browser = fakeBrowser();
    browser.answer("/items/1", page("1"));
    const events: string[] = [];
    const stop = onNavigation({ start: ({ pattern }) => events.push(`start ${pattern}`), end: ({ pattern }) => events.push(`end ${pattern}`) });
    const { router } = await startRouter(browser);
    await router.navigate("/items/1");
    await router.navigate("/items/missing");
    stop();
    expect(events).toEqual(["start /items/:id", "end /items/:id", "start /items/:id", "end not_found"]);
  });
});

describe("redirects", () => {
  it("follows a same-origin redirect as another data request, the redirecting URL never an entry", async () => {
    const browser = fakeBrowser();
    browser.answer("/items/old", redirect("/items/2"));
    browser.answer("/items/2", page("2"));
    const { router } = await startRouter(browser);
    await router.navigate("/items/old");
    expect(browser.log.requests.map((request) => request.path)).toEqual(["/items/old", "/items/2"]);
    expect(browser.log.pushed).toEqual(["/items/2"]);
    expect(browser.path()).toBe("/items/2");
  });

  it("loads another origin's redirect target as a document, and refuses a javascript: one", async () => {
    const browser = fakeBrowser();
    browser.answer("/items/away", redirect("https://elsewhere.example/x", 302));
    browser.answer("/items/evil", redirect("javascript:alert(1)", 302));
    const { router } = await startRouter(browser);
    await router.navigate("/items/away");
    expect(browser.log.fullLoads).toEqual(["https://elsewhere.example/x"]);
    vi.spyOn(console, "warn").mockImplementation(() => {});
    await router.navigate("/items/evil");
    expect(browser.log.fullLoads).toEqual(["https://elsewhere.example/x"]);
    expect(router.state().navigation.state).toBe("idle");
    expect(browser.dataset.navigating).toBeUndefined();
    expect(browser.path()).toBe("/");
  });

  it("ends a redirect loop in a full page load", async () => {
    const browser = fakeBrowser();
    browser.answer("/items/loop", redirect("/items/loop"));
    const { router } = await startRouter(browser);
    await router.navigate("/items/loop");
    expect(browser.log.requests.length).toBe(11);
    expect(browser.log.fullLoads).toEqual([`${ORIGIN}/items/loop`]);
  });
});

describe("deploy skew and failures", () => {
  it("loads the page in full for another build's answer, a network failure or an answer that is not data", async () => {
    const browser = fakeBrowser();
    browser.answer("/items/3", page("3", "build-2"));
    browser.answer("/items/4", "network");
    browser.answer("/items/5", "<html>proxy error</html>");
    const { router } = await startRouter(browser);
    for (const path of ["/items/3", "/items/4", "/items/5"]) {
      await router.navigate(path);
      // The fake browser stays on the page, as a real one does when a beforeunload prompt is declined: idle, not loading.
      expect(router.state().navigation.state, path).toBe("idle");
      expect(browser.dataset.navigating, path).toBeUndefined();
    }
    expect(browser.log.fullLoads).toEqual([`${ORIGIN}/items/3`, `${ORIGIN}/items/4`, `${ORIGIN}/items/5`]);
    expect(browser.log.pushed).toEqual([]);
    expect(browser.log.requests.every((request) => request.url.startsWith("/__data/"))).toBe(true);
  });

  it("a route chunk that fails to fetch is fetched again; still failing, the target loads as a document", async () => {
    const browser = fakeBrowser();
    browser.answer("/items/1", page("1"));
    const missing = vi.fn(async (): Promise<never> => {
      throw new TypeError("Failed to fetch dynamically imported module");
    });
    const { router } = await startRouter(browser, HOME, { Item: missing });
    await router.navigate("/items/1");
    expect(missing).toHaveBeenCalledTimes(3);
    expect(browser.log.fullLoads).toEqual([`${ORIGIN}/items/1`]);
    expect(browser.log.pushed).toEqual([]);
    // The browser's own loading shows from here; should the visitor stay, the page is idle.
    expect(router.state().navigation.state).toBe("idle");
  });

  it("a route chunk that fails to fetch once is fetched again, and the navigation stays on the client", async () => {
    const browser = fakeBrowser();
    browser.answer("/items/1", page("1"));
    let calls = 0;
    const flaky = async () => {
      calls += 1;
      if (calls === 1) throw new TypeError("Failed to fetch dynamically imported module");
      return { default: () => null } as unknown as RouteModule;
    };
    const { router } = await startRouter(browser, HOME, { Item: flaky });
    await router.navigate("/items/1");
    expect(calls).toBe(2);
    expect(browser.log.fullLoads).toEqual([]);
    expect(browser.log.pushed).toEqual(["/items/1"]);
  });

  it("back and forward load the entry's page again, and a fragment of the same page loads nothing", async () => {
    const browser = fakeBrowser();
    browser.answer("/items/1", page("1"));
    browser.answer("/", { kind: "state", build: BUILD, status: 200, state: HOME });
    const { router } = await startRouter(browser);
    await router.navigate("/items/1");
    await router.navigate("/items/1#details");
    const requests = browser.log.requests.length;
    browser.back();
    expect(browser.log.requests.length).toBe(requests);
    expect(router.state().location.hash).toBe("");
    browser.back();
    await until(router, (state) => state.page.pattern === "/");
    expect(router.state().historyAction).toBe("pop");
    expect(browser.path()).toBe("/");
  });
});
