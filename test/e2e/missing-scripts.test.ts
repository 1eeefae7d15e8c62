import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, type WatchedPage, watchPage } from "../support/browser";
import { eventsWithMessage } from "../support/envelopes";
import { fixtureStack } from "../support/fixture-stack";
import { reportingStack } from "../support/reporting-stack";

// A page whose scripts are missing (a deploy removed them from the replica that answered, and
// no replica can serve them): the document retries them, then loads itself again, once.

/** Answers 404 (no-store, as the server does) to the first `times` requests matching `pattern`; counts every request. */
async function missing(page: Page, pattern: RegExp, times = Number.POSITIVE_INFINITY): Promise<{ requests: number }> {
  const seen = { requests: 0 };
  await page.route(pattern, async (route) => {
    seen.requests += 1;
    if (seen.requests <= times) await route.fulfill({ status: 404, headers: { "Cache-Control": "no-store" }, body: "Not Found" });
    else await route.continue();
  });
  return seen;
}

const ENTRY = /\/assets\/entry-[A-Z0-9]+\.js$/;
const HOME_CHUNK = /\/assets\/chunks\/Home-[A-Z0-9]+\.js$/;
const ITEM_CHUNK = /\/assets\/chunks\/Item-[A-Z0-9]+\.js$/;
const hydrated = (page: Page) => page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
/** Longer than every retry and the reload take, so a loop would have shown. */
const settle = (page: Page) => page.waitForTimeout(3_000);
const isHydrated = (page: Page) => page.evaluate(() => document.documentElement.dataset.hydrated === "true");

describe.skipIf(!hasChromium)("a page whose scripts fail to load", () => {
  const stack = fixtureStack();

  async function open(pattern: RegExp, times?: number): Promise<WatchedPage & { asset: { requests: number } }> {
    const watched = watchPage(await stack.browser.newPage());
    const asset = await missing(watched.page, pattern, times);
    await watched.page.goto(`${stack.server.url}/`);
    return { ...watched, asset };
  }

  // React preloads the entry (<link rel=modulepreload>): the first request for it is the preload's.
  it("an entry script missing once is inserted again: the page hydrates with no reload", async () => {
    const { page, documentRequests, asset } = await open(ENTRY, 2);
    await hydrated(page);
    await page.click("#count");
    expect(await page.textContent("#count")).toBe("1");
    expect(asset.requests).toBe(3);
    expect(documentRequests).toEqual(["/"]);
    await page.close();
  });

  it("an entry script missing through its retries: the document loads again, once, and hydrates", async () => {
    const { page, documentRequests, asset } = await open(ENTRY, 4);
    await hydrated(page);
    expect(documentRequests).toEqual(["/", "/"]);
    expect(asset.requests).toBe(5);
    await page.close();
  });

  it("an entry script always missing: exactly one reload, no loop, and the page works without JavaScript", async () => {
    const { page, documentRequests, asset } = await open(ENTRY);
    await page.waitForSelector("#home");
    await settle(page);
    expect(documentRequests).toEqual(["/", "/"]);
    // Three or four requests in each document: the preload, the server's script (Chromium may take
    // it from the failed preload instead of asking again), two inserted again; a loop would ask more.
    expect(asset.requests).toBeGreaterThanOrEqual(6);
    expect(asset.requests).toBeLessThanOrEqual(8);
    expect(await isHydrated(page)).toBe(false);
    // Its links are plain links: a document navigation, which recovers on its own terms.
    await page.click("#to-item");
    await page.waitForURL(`${stack.server.url}/items/1`);
    expect(await page.textContent("#item")).toMatch(/^Item 1/);
    await page.close();
  });

  it("a route chunk hydration needs, missing once (its preload) and once more: fetched again, no reload", async () => {
    const { page, documentRequests } = await open(HOME_CHUNK, 2);
    await hydrated(page);
    expect(documentRequests).toEqual(["/"]);
    await page.close();
  });

  it("a route chunk hydration needs, always missing: exactly one reload, no loop", async () => {
    const { page, documentRequests } = await open(HOME_CHUNK);
    await page.waitForSelector("#home");
    await settle(page);
    expect(documentRequests).toEqual(["/", "/"]);
    expect(await isHydrated(page)).toBe(false);
    await page.close();
  });

  it("a client navigation whose route chunk is missing once: fetched again, still a client navigation", async () => {
    const watched = watchPage(await stack.browser.newPage());
    const { page, documentRequests } = watched;
    await page.goto(`${stack.server.url}/`);
    await hydrated(page);
    const chunk = await missing(page, ITEM_CHUNK, 1);
    await page.click("#to-item", { noWaitAfter: true });
    await page.waitForSelector("#item");
    expect(chunk.requests).toBe(2);
    expect(documentRequests).toEqual(["/"]);
    await page.close();
  });

  it("a client navigation whose route chunk is always missing becomes a document navigation to its target", async () => {
    const watched = watchPage(await stack.browser.newPage());
    const { page, documentRequests } = watched;
    await page.goto(`${stack.server.url}/`);
    await hydrated(page);
    await missing(page, ITEM_CHUNK);
    await page.click("#to-item", { noWaitAfter: true });
    await page.waitForURL(`${stack.server.url}/items/1`);
    await page.waitForSelector("#item");
    expect(await page.textContent("#item")).toMatch(/^Item 1/);
    expect(documentRequests[1]).toBe("/items/1");
    await page.close();
  });
});

describe.skipIf(!hasChromium)("the error-reporting chunk missing at first", () => {
  const stack = reportingStack({});

  it("is fetched again with backoff, and an error thrown before it loaded still reaches the ingest", async () => {
    const page = await stack.browser.newPage();
    const chunk = await missing(page, /\/assets\/chunks\/error-reporting-[A-Z0-9]+\.js$/, 2);
    await page.goto(`${stack.server.url}/`);
    await hydrated(page);
    const thrown = page.waitForEvent("pageerror");
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error("error while the reporting chunk is missing");
      });
    });
    await thrown;
    await stack.ingest.waitFor(() => eventsWithMessage(stack.ingest, "error while the reporting chunk is missing").length > 0, 15_000);
    expect(eventsWithMessage(stack.ingest, "error while the reporting chunk is missing")).toHaveLength(1);
    expect(chunk.requests).toBe(3);
    await page.close();
  });
});
