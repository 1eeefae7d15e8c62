import { describe, expect, it } from "vitest";
import { BUILD, fakeBrowser, HOME, page, startRouter, until } from "./support/fake-browser";

// What follows the router's state in a fake browser: scroll, focus and the navigating flag
// (test/e2e/navigation.test.ts and accessibility-focus.test.ts in Chromium).
describe("scroll and focus", () => {
  it("a new page starts at the top with its heading focused; back returns where the visitor was", async () => {
    const browser = fakeBrowser();
    browser.answer("/items/1", page("1"));
    browser.answer("/items/2", page("2"));
    const { router } = await startRouter(browser);
    await router.navigate("/items/1");
    expect(browser.log.scrolls).toEqual(["y=0"]);
    expect(browser.log.focused).toEqual(["h1"]);
    browser.window.scrollY = 640;
    await router.navigate("/items/2");
    browser.window.scrollY = 0;
    browser.back();
    await until(router, (state) => state.location.pathname === "/items/1");
    expect(browser.log.scrolls).toEqual(["y=0", "y=0", "y=640"]);
  });

  it("a #hash scrolls to its target and focuses it", async () => {
    const browser = fakeBrowser();
    browser.answer("/items/1", page("1"));
    const { router } = await startRouter(browser);
    await router.navigate("/items/1#details");
    expect(browser.log.scrolls).toEqual(["#details"]);
    expect(browser.log.focused).toEqual(["#details"]);
  });

  it("a revalidation leaves scroll and focus alone, and sets no navigating flag", async () => {
    const browser = fakeBrowser();
    browser.answer("/", { kind: "state", build: BUILD, status: 200, state: HOME });
    const { router } = await startRouter(browser);
    const flags: (string | undefined)[] = [];
    router.subscribe(() => flags.push(browser.dataset.navigating));
    const revalidated = router.revalidate();
    expect(router.state().revalidation).toBe("loading");
    await revalidated;
    expect(router.state().revalidation).toBe("idle");
    expect(browser.log.requests).toHaveLength(1);
    expect([...browser.log.scrolls, ...browser.log.focused]).toEqual([]);
    expect(flags.every((flag) => flag === undefined)).toBe(true);
  });

  it("keeps the positions by history entry in sessionStorage when the tab is hidden", async () => {
    const browser = fakeBrowser();
    browser.answer("/items/1", page("1"));
    const { router } = await startRouter(browser);
    const home = router.state().location.key;
    browser.window.scrollY = 300;
    await router.navigate("/items/1");
    expect(browser.env.sessionStorage.getItem("outpost:scroll")).toBeNull();
    browser.hide();
    expect(JSON.parse(browser.env.sessionStorage.getItem("outpost:scroll") ?? "{}")).toEqual({ [home]: 300 });
  });
});
