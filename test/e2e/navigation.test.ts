import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, type WatchedPage, watchPage } from "../support/browser";
import { fixtureStack } from "../support/fixture-stack";

// Client-side navigation in Chromium, on the fixture app (test/fixtures/app) built by the
// test run's global setup: the same platform as the product, with pages made for these checks.
describe.skipIf(!hasChromium)("client-side navigation", () => {
  const stack = fixtureStack();

  async function open(pathname: string): Promise<WatchedPage> {
    // The not-found page's own 404 status, on a full load, is logged by Chromium: expected there.
    const opened = watchPage(await stack.browser.newPage(), (url) => url.endsWith("/nowhere"));
    const { page } = opened;
    await page.goto(`${stack.server.url}${pathname}`);
    await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    await page.evaluate(() => {
      (window as unknown as { marker: number }).marker = 42;
    });
    return opened;
  }

  const marker = (page: Page) => page.evaluate(() => (window as unknown as { marker?: number }).marker);
  const meta = (page: Page, selector: string) => page.getAttribute(`meta[${selector}]`, "content");
  /** A click the way a visitor's would land, without Playwright scrolling the link into view first. */
  const clickInPlace = (page: Page, selector: string) =>
    page.evaluate((target) => (document.querySelector(target) as HTMLElement).click(), selector);

  it("renders the next page without a reload, from one data request, and updates URL, title and head", async () => {
    const { page, problems, dataRequests, documentRequests } = await open("/");
    await page.click("#count");
    await page.click("#to-item", { noWaitAfter: true });
    await page.waitForSelector("#item");
    expect(await page.textContent("#item")).toMatch(/^Item 1/);
    expect(page.url()).toBe(`${stack.server.url}/items/1`);
    expect(await marker(page)).toBe(42);
    expect(await page.title()).toBe("Item 1");
    expect(await meta(page, 'name="description"')).toBe("About item 1");
    expect(await meta(page, 'property="og:title"')).toBe("Item 1");
    expect(dataRequests).toEqual(["/__data/items/1"]);
    expect(documentRequests).toEqual(["/"]);
    expect(await page.evaluate(() => document.documentElement.dataset.navigating)).toBeUndefined();
    expect(problems).toEqual([]);
    await page.close();
  });

  it("goes back and forward without reloading", async () => {
    const { page, problems, documentRequests } = await open("/");
    await page.click("#to-long");
    await page.waitForSelector("#long");
    await page.goBack();
    await page.waitForSelector("#home");
    expect(await page.title()).toBe("Fixture");
    await page.goForward();
    await page.waitForSelector("#long");
    expect(await page.title()).toBe("Long page");
    expect(await marker(page)).toBe(42);
    expect(documentRequests).toEqual(["/"]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("starts a new page at the top or at its #hash target, and restores the position on back", async () => {
    const { page, problems } = await open("/long");
    await page.evaluate(() => window.scrollTo(0, 2000));
    await clickInPlace(page, "#to-item");
    await page.waitForSelector("#item");
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.goBack();
    await page.waitForSelector("#long");
    await page.waitForFunction(() => window.scrollY === 2000);
    await clickInPlace(page, "#to-part");
    await page.waitForFunction(() => window.location.hash === "#part-6");
    const top = await page.evaluate(() => document.getElementById("part-6")?.getBoundingClientRect().top ?? -1);
    expect(Math.abs(top)).toBeLessThan(2);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("prefetches a link's data on hover, and the click renders from it without a second request", async () => {
    const { page, problems, dataRequests } = await open("/");
    const prefetched = page.waitForRequest((request) => request.url().endsWith("/__data/items/1"));
    await page.hover("#to-item");
    await prefetched;
    expect(await page.$("#item")).toBeNull();
    await page.click("#to-item");
    // A second request would have started before the page rendered, and Playwright reports events in order.
    await page.waitForSelector("#item");
    expect(dataRequests).toEqual(["/__data/items/1"]);
    // A link that opts out fetches nothing on hover. The control: focusing another link (the
    // mouse stays) starts the same intent delay later, so its prefetch comes after any the hover made.
    await page.hover("#to-item-no-prefetch");
    const control = page.waitForRequest((request) => new URL(request.url()).pathname === "/__data/slow");
    await page.focus("#to-slow");
    await control;
    expect(dataRequests.filter((request) => request.startsWith("/__data/items/2"))).toEqual([]);
    expect(dataRequests[0]).toBe("/__data/items/1");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("marks a pending navigation and shows the progress bar when it takes longer than 200 ms", async () => {
    const { page, problems } = await open("/");
    await page.click("#to-slow");
    expect(await page.evaluate(() => document.documentElement.dataset.navigating)).toBe("true");
    await page.waitForSelector(".navigation-progress", { state: "attached", timeout: 1_000 });
    await page.waitForSelector("#slow");
    expect(await page.evaluate(() => document.documentElement.dataset.navigating)).toBeUndefined();
    expect(await page.$(".navigation-progress")).toBeNull();
    expect(problems).toEqual([]);
    await page.close();
  });

  it("useNavigation() shows a <Form>'s submission as submitting, with its data, and the page as navigating", async () => {
    const { page, problems } = await open("/slow");
    expect(await page.textContent("#navigation-state")).toBe("idle");
    await page.fill("#note", "hello");
    await page.click("#save-note");
    await page.waitForSelector('#navigation-state[data-state="submitting"]');
    expect(await page.textContent("#navigation-state")).toBe("submitting POST /slow hello");
    expect(await page.evaluate(() => document.documentElement.dataset.navigating)).toBe("true");
    await page.waitForSelector("#saved");
    expect(await page.textContent("#saved")).toBe("saved hello");
    expect(await page.textContent("#navigation-state")).toBe("idle");
    expect(await page.evaluate(() => document.documentElement.dataset.navigating)).toBeUndefined();
    expect(await marker(page)).toBe(42);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("useFetchers() lists a keyed fetcher submitting, then loading while the page revalidates; no navigation", async () => {
    const { page, problems } = await open("/slow");
    await page.fill("#fetcher-note", "quiet");
    await page.click("#fetcher-save");
    await page.waitForFunction(() => document.querySelector("#fetchers")?.textContent === "note submitting quiet");
    expect(await page.textContent("#navigation-state")).toBe("idle");
    // After the action: loading, with what was sent, until the revalidated page is on screen.
    await page.waitForFunction(() => document.querySelector("#fetchers")?.textContent === "note loading quiet");
    expect(await page.textContent("#fetcher-saved")).toBe("fetched quiet");
    await page.waitForFunction(() => document.querySelector("#fetchers")?.textContent === "");
    expect(await page.textContent("#navigation-state")).toBe("idle");
    expect(await page.evaluate(() => document.documentElement.dataset.navigating)).toBeUndefined();
    expect(await marker(page)).toBe(42);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("follows a loader's redirect in the browser, and shows the not-found page with the URL kept", async () => {
    const { page, problems, documentRequests } = await open("/");
    await page.click("#to-redirect");
    await page.waitForSelector("#item");
    expect(page.url()).toBe(`${stack.server.url}/items/1`);
    for (const [link, url] of [
      ["#to-missing", "/items/404"],
      ["#to-nowhere", "/nowhere"],
    ] as const) {
      await page.click(link);
      await page.waitForSelector("#not-found");
      expect(page.url()).toBe(`${stack.server.url}${url}`);
      expect(await page.title()).toBe("Not found");
      await page.click("#to-home");
      await page.waitForSelector("#home");
    }
    await page.click("#to-broken");
    await page.waitForSelector("#route-error");
    expect(await page.title()).toBe("Fixture error");
    expect(documentRequests).toEqual(["/"]);
    expect(await marker(page)).toBe(42);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("loads the page in full when the server runs another build", async () => {
    const { page } = await open("/");
    // As if this page came from the previous deploy.
    await page.route("**/__data/**", (route) =>
      route.continue({ headers: { ...route.request().headers(), "x-outpost-build": "0ldbu1ld0000" } }),
    );
    await page.click("#to-item");
    await page.waitForSelector("#item");
    await page.waitForSelector("html[data-hydrated=true]");
    expect(page.url()).toBe(`${stack.server.url}/items/1`);
    expect(await marker(page)).toBeUndefined();
    await page.close();
  });

  it("leaves modified clicks, other targets and other origins to the browser", async () => {
    const { page } = await open("/");
    await page.route("http://example.invalid/**", (route) => route.fulfill({ contentType: "text/html", body: "<p id=elsewhere>elsewhere</p>" }));
    for (const click of [() => page.click("#to-item", { modifiers: ["Control"] }), () => page.click("#to-item-new-tab")]) {
      const opened = stack.browser.waitForEvent("page");
      await click();
      const tab = await opened;
      await tab.waitForLoadState();
      expect(tab.url()).toMatch(/\/items\/[13]$/);
      await tab.close();
      expect(page.url()).toBe(`${stack.server.url}/`);
    }
    await page.click("#to-other-origin");
    await page.waitForSelector("#elsewhere");
    await page.close();
  });
});
