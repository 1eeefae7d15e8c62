import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, markDocument, notReloaded, type WatchedPage, watchPage } from "../support/browser";
import { fixtureStack } from "../support/fixture-stack";

// Validated search params and a layout's data read by its child, on the diagnostics, in Chromium.
describe.skipIf(!hasChromium)("search params and parent data in a browser", () => {
  const stack = fixtureStack({ ENABLE_DIAGNOSTIC_ROUTES: "true" });

  async function open(path: string): Promise<WatchedPage> {
    // A document answered 400 is logged by Chromium as a failed resource: expected for that URL.
    const watched = watchPage(await stack.browser.newPage(), (url) => url.includes("page=0"));
    await watched.page.goto(`${stack.server.url}${path}`);
    await watched.page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    await markDocument(watched.page);
    return watched;
  }
  const errorSection = (page: Page) => page.innerText('[data-status="400"]');

  it("shows a client navigation to a refused query the same 400 page as the document", async () => {
    const loaded = await open("/diagnostics/search?page=0");
    const documentError = await errorSection(loaded.page);
    await loaded.page.close();

    const { page, problems, documentRequests, dataRequests } = await open("/diagnostics/search");
    expect(await page.textContent("#search-page")).toBe("1");
    await page.click("#search-page-2");
    await page.waitForFunction(() => document.getElementById("search-page")?.textContent === "2");
    expect(await page.textContent("#search-sort")).toBe("asc");
    await page.click("#search-bad");
    await page.waitForSelector('[data-status="400"]');
    expect(page.url()).toBe(`${stack.server.url}/diagnostics/search?page=0`);
    expect(await errorSection(page)).toBe(documentError);
    expect(await page.$("#search-page")).toBeNull();
    expect(dataRequests.map((request) => request.split("&_routes=")[0])).toEqual([
      "/__data/diagnostics/search?page=2",
      "/__data/diagnostics/search?page=0",
    ]);
    expect(documentRequests).toEqual(["/diagnostics/search"]);
    expect(await notReloaded(page)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows the layout's data in its loaderless child after a client navigation, and its new data after a revalidation", async () => {
    const { page, problems, documentRequests } = await open("/diagnostics");
    await page.click('a[href="/diagnostics/parent/child"]');
    await page.waitForSelector("#parent-label");
    expect(await page.textContent("#parent-label")).toBe("parent data");
    const first = await page.textContent("#parent-served-at");
    expect(first).toBe(await page.textContent("#layout-served-at"));
    await page.click("#parent-revalidate");
    await page.waitForFunction((before) => {
      const child = document.getElementById("parent-served-at")?.textContent;
      return child !== before && child === document.getElementById("layout-served-at")?.textContent;
    }, first);
    expect(await page.textContent("#parent-label")).toBe("parent data");
    expect(documentRequests).toEqual(["/diagnostics"]);
    expect(await notReloaded(page)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
});
