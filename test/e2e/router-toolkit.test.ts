import { describe, expect, it } from "vitest";
import { hasChromium, holdRequests, markDocument, notReloaded, type WatchedPage, watchPage } from "../support/browser";
import { fixtureStack } from "../support/fixture-stack";

// /diagnostics/toolkit in Chromium: a GET form, navigate(), the URL's hooks, the blocker and a
// view transition, each without a reload.
describe.skipIf(!hasChromium)("the router's toolkit in a browser", () => {
  const stack = fixtureStack({ ENABLE_DIAGNOSTIC_ROUTES: "true" });

  async function open(path: string): Promise<WatchedPage> {
    const watched = watchPage(await stack.browser.newPage());
    await watched.page.goto(`${stack.server.url}${path}`);
    await watched.page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    await markDocument(watched.page);
    return watched;
  }
  const path = (watched: WatchedPage) => new URL(watched.page.url()).pathname + new URL(watched.page.url()).search;

  it("hydrates the hooks' values without a mismatch, and a GET form navigates with its fields as the whole query", async () => {
    const watched = await open("/diagnostics/toolkit?q=old&other=1#top");
    const { page, problems, documentRequests, dataRequests } = watched;
    expect(await page.textContent("#toolkit-q")).toBe("old");
    expect(await page.textContent("#toolkit-path")).toBe("/diagnostics/toolkit");
    const release = await holdRequests(page, "**/__data/**");
    await page.fill("#toolkit-filter input[name=q]", "lamp");
    await page.press("#toolkit-filter input[name=q]", "Enter");
    // Pending while the data is on its way: the router's navigating flag.
    await page.waitForSelector("html[data-navigating=true]");
    expect(await page.textContent("#toolkit-q")).toBe("old");
    release();
    await page.waitForFunction(() => document.getElementById("toolkit-q")?.textContent === "lamp");
    expect(path(watched)).toBe("/diagnostics/toolkit?q=lamp");
    // The page's fragment is kept, as the browser's own submission of a form without an action keeps it.
    expect(new URL(page.url()).hash).toBe("#top");
    expect(await page.textContent("#toolkit-loaded-q")).toBe("lamp");
    expect(dataRequests.map((request) => request.split("&_routes=")[0])).toEqual(["/__data/diagnostics/toolkit?q=lamp"]);
    await page.goBack();
    await page.waitForFunction(() => document.getElementById("toolkit-q")?.textContent === "old");
    expect(documentRequests).toEqual(["/diagnostics/toolkit?q=old&other=1"]);
    expect(await notReloaded(page)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("navigate() goes to another page on the client; back returns", async () => {
    const watched = await open("/diagnostics/toolkit");
    const { page, problems, documentRequests } = watched;
    await page.click("#toolkit-go");
    await page.waitForSelector("#diagnostics-title");
    expect(path(watched)).toBe("/diagnostics");
    await page.goBack();
    await page.waitForSelector("#toolkit-title");
    expect(documentRequests).toEqual(["/diagnostics/toolkit"]);
    expect(await notReloaded(page)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("holds a link while the draft is not empty: stay keeps the page, leave goes on", async () => {
    const watched = await open("/diagnostics/toolkit");
    const { page, problems, dataRequests } = watched;
    await page.fill("#toolkit-draft", "half a thought");
    await page.click("#toolkit-search");
    await page.waitForSelector("#toolkit-blocked");
    expect(path(watched)).toBe("/diagnostics/toolkit");
    expect(dataRequests).toEqual([]);
    await page.click("#toolkit-stay");
    await page.waitForSelector("#toolkit-blocked", { state: "detached" });
    expect(await page.inputValue("#toolkit-draft")).toBe("half a thought");
    await page.click("#toolkit-go");
    await page.waitForSelector("#toolkit-blocked");
    await page.click("#toolkit-proceed");
    await page.waitForSelector("#diagnostics-title");
    expect(path(watched)).toBe("/diagnostics");
    expect(await notReloaded(page)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("holds back and forward: the URL is put back until leave", async () => {
    const watched = await open("/diagnostics/toolkit?q=first");
    const { page, problems } = watched;
    await page.fill("#toolkit-filter input[name=q]", "second");
    await page.press("#toolkit-filter input[name=q]", "Enter");
    await page.waitForFunction(() => document.getElementById("toolkit-q")?.textContent === "second");
    await page.fill("#toolkit-draft", "unsaved");
    await page.evaluate(() => history.back());
    await page.waitForSelector("#toolkit-blocked");
    await page.waitForFunction(() => location.search === "?q=second");
    expect(await page.textContent("#toolkit-q")).toBe("second");
    await page.click("#toolkit-stay");
    await page.evaluate(() => history.back());
    await page.waitForSelector("#toolkit-blocked");
    await page.click("#toolkit-proceed");
    await page.waitForFunction(() => document.getElementById("toolkit-q")?.textContent === "first");
    expect(path(watched)).toBe("/diagnostics/toolkit?q=first");
    // Forward is held the same way.
    await page.evaluate(() => history.forward());
    await page.waitForSelector("#toolkit-blocked");
    await page.waitForFunction(() => location.search === "?q=first");
    await page.click("#toolkit-proceed");
    await page.waitForFunction(() => document.getElementById("toolkit-q")?.textContent === "second");
    expect(await page.inputValue("#toolkit-draft")).toBe("unsaved");
    expect(await notReloaded(page)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("holds two backs asked in one task: the URL comes back to the page on screen", async () => {
    const watched = await open("/diagnostics/toolkit?q=first");
    const { page, problems } = watched;
    for (const q of ["second", "third"]) {
      await page.fill("#toolkit-filter input[name=q]", q);
      await page.press("#toolkit-filter input[name=q]", "Enter");
      await page.waitForFunction((value) => document.getElementById("toolkit-q")?.textContent === value, q);
    }
    await page.fill("#toolkit-draft", "unsaved");
    await page.evaluate(() => {
      history.back();
      history.back();
    });
    await page.waitForSelector("#toolkit-blocked");
    await page.waitForFunction(() => location.search === "?q=third", undefined, { timeout: 5_000 });
    // Settled there: no put-back still on its way moves it again.
    await page.waitForTimeout(500);
    expect(path(watched)).toBe("/diagnostics/toolkit?q=third");
    expect(await page.textContent("#toolkit-q")).toBe("third");
    await page.click("#toolkit-stay");
    expect(await page.inputValue("#toolkit-draft")).toBe("unsaved");
    expect(await notReloaded(page)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("runs a navigation with viewTransition inside document.startViewTransition, flagged while it runs", async () => {
    const watched = await open("/diagnostics/toolkit");
    const { page, problems } = watched;
    expect(await page.evaluate(() => typeof document.startViewTransition)).toBe("function");
    await page.evaluate(() => {
      const original = document.startViewTransition.bind(document);
      const seen: string[] = [];
      (window as unknown as { transitions: string[] }).transitions = seen;
      document.startViewTransition = ((update: () => void) =>
        original(() => {
          seen.push(`before ${location.pathname}`);
          update();
          seen.push(`after ${document.querySelector("h1")?.textContent}`);
        })) as typeof document.startViewTransition;
    });
    const release = await holdRequests(page, "**/__data/**");
    await page.click("#toolkit-fade");
    await page.waitForFunction(() => document.getElementById("toolkit-transition")?.textContent === "transitioning");
    release();
    await page.waitForSelector("#search-title");
    const transitions = await page.evaluate(() => (window as unknown as { transitions: string[] }).transitions);
    expect(transitions).toEqual(["before /diagnostics/search", "after Search params"]);
    // A plain link does not ask for one.
    await page.goBack();
    await page.waitForSelector("#toolkit-title");
    expect(await page.evaluate(() => (window as unknown as { transitions: string[] }).transitions)).toHaveLength(2);
    expect(await notReloaded(page)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
});
