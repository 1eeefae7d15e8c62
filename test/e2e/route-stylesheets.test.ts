import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { BuildManifest } from "#src/server/assets/manifest";
import { hasChromium, type WatchedPage, watchPage } from "../support/browser";
import { fixtureBuild } from "../support/builds";
import { fixtureStack } from "../support/fixture-stack";

// Each page's stylesheets in Chromium, on the fixture app's nested pages (test/fixtures/app/nested):
// the root layout's sheet, the nested layout's, then the page's, linked once each; on a client
// navigation the next page's are loaded before it shows, and only sheets no longer used are removed.
describe.skipIf(!hasChromium)("stylesheets per route", () => {
  const stack = fixtureStack();
  const ROOT_RGB = "rgb(1, 1, 1)";
  const LAYOUT_RGB = "rgb(0, 0, 128)";
  const PAGE_RGB = { first: "rgb(128, 0, 0)", second: "rgb(0, 128, 0)", third: "rgb(128, 0, 128)" };
  const PANEL_RGB = "rgb(0, 96, 96)";

  /** What the build's manifest says a chain of routes links: the entry's, then each route's in order, once each. */
  function chainStyles(...ids: string[]): string[] {
    const manifest = JSON.parse(readFileSync(path.join(fixtureBuild(), "manifest.json"), "utf8")) as BuildManifest;
    return [...new Set([...manifest.entry.styles, ...ids.flatMap((id) => manifest.routes[id]?.styles ?? [])])];
  }
  const nested = (page: string) => chainStyles("Layout", "nested/NestedLayout", page);
  const HOME = () => chainStyles("Layout", "Home");

  async function open(pathname: string): Promise<WatchedPage> {
    const watched = watchPage(await stack.browser.newPage());
    // The stylesheet links as the server sent them, before any script ran.
    await watched.page.addInitScript(() => {
      document.addEventListener("readystatechange", () => {
        if (document.readyState !== "interactive") return;
        (window as unknown as { served: Element[] }).served = [...document.querySelectorAll('link[rel="stylesheet"]')];
      });
    });
    await watched.page.goto(`${stack.server.url}${pathname}`);
    await watched.page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    return watched;
  }

  const linked = (page: Page) => page.$$eval('link[rel="stylesheet"]', (links) => links.map((link) => link.getAttribute("href")));
  const headingStyle = (page: Page, id: string) =>
    page.$eval(`#${id}`, (heading) => {
      const style = getComputedStyle(heading);
      return { color: style.color, background: style.backgroundColor, decoration: style.textDecorationColor };
    });

  /**
   * Records, as each element of `ids` first appears, its colour then (the DOM just committed,
   * nothing painted yet) and at the animation frame that paints it; and the stylesheet links
   * added and removed, with the number of the mutation batch that did it and that showed each element.
   */
  function recordFirstFrames(page: Page, ids: string[]) {
    return page.evaluate((watched) => {
      const record = { batch: 0, seen: {} as Record<string, { batch: number; committed: string; frame?: string }>, links: [] as string[] };
      (window as unknown as { firstFrames: typeof record }).firstFrames = record;
      new MutationObserver((mutations) => {
        record.batch += 1;
        for (const mutation of mutations) {
          for (const [nodes, change] of [
            [mutation.addedNodes, "+"],
            [mutation.removedNodes, "-"],
          ] as const) {
            for (const node of nodes) {
              if (node instanceof HTMLLinkElement && node.rel === "stylesheet") record.links.push(`${record.batch} ${change}${node.getAttribute("href")}`);
            }
          }
        }
        for (const id of watched) {
          const element = document.getElementById(id);
          if (!element || record.seen[id]) continue;
          const seen: (typeof record.seen)[string] = { batch: record.batch, committed: getComputedStyle(element).color };
          record.seen[id] = seen;
          requestAnimationFrame(() => {
            seen.frame = getComputedStyle(element).color;
          });
        }
      }).observe(document, { subtree: true, childList: true });
    }, ids);
  }
  const firstFrames = (page: Page) =>
    page.evaluate(() => (window as unknown as { firstFrames: { seen: Record<string, { batch: number; committed: string; frame?: string }>; links: string[] } }).firstFrames);

  /** Every stylesheet answers 1 s late: a page shown before its sheets loaded would show unstyled. */
  const delayStylesheets = (page: Page) =>
    page.route("**/*.css", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue();
    });

  it("a page links its chain's stylesheets once each, the root's, the layout's, then the page's, and hydration keeps those very links", async () => {
    const { page, problems } = await open("/nested/first");
    const expected = nested("nested/FirstPage");
    // The root's, the layout's and the page's own at least (the entry may add its own first).
    expect(expected.length).toBeGreaterThanOrEqual(3);
    expect(await linked(page)).toEqual(expected);
    expect(await page.evaluate(() => (window as unknown as { __OUTPOST__: { state: { styles: string[] } } }).__OUTPOST__.state.styles)).toEqual(expected);
    // The same nodes the server sent: React hydrated them, it did not add its own beside them.
    expect(await page.evaluate(() => (window as unknown as { served: Element[] }).served.every((link, at) => link === document.querySelectorAll('link[rel="stylesheet"]')[at]))).toBe(true);
    // Each sheet overrides the one before: the heading's colour is the page's, its background the layout's, its underline the root's.
    expect(await headingStyle(page, "first-page")).toEqual({ color: PAGE_RGB.first, background: LAYOUT_RGB, decoration: ROOT_RGB });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("a client navigation shows the next page styled in its first frame, its stylesheet answering 1 s late, and keeps the layout's sheet", async () => {
    const { page, problems } = await open("/nested/first");
    const layoutSheet = nested("nested/FirstPage")[1];
    const [firstSheet] = nested("nested/FirstPage").slice(-1);
    const [secondSheet] = nested("nested/SecondPage").slice(-1);
    await page.evaluate((href) => {
      (window as unknown as { layoutLink: Element | null }).layoutLink = document.querySelector(`link[href="${href}"]`);
    }, layoutSheet);
    await delayStylesheets(page);
    await recordFirstFrames(page, ["second-page"]);
    await page.click("#to-nested-second");
    await page.waitForSelector("#second-page");
    await page.waitForFunction(() => (window as unknown as { firstFrames: { seen: Record<string, { frame?: string }> } }).firstFrames.seen["second-page"]?.frame);
    const { seen, links } = await firstFrames(page);
    expect(seen["second-page"]).toMatchObject({ committed: PAGE_RGB.second, frame: PAGE_RGB.second });
    // The page left's sheet went with it, in the commit that showed the next page; the layout's never moved.
    const shown = seen["second-page"]?.batch;
    expect(links.sort()).toEqual([`${shown} +${secondSheet}`, `${shown} -${firstSheet}`]);
    expect(await page.evaluate(() => (window as unknown as { layoutLink: Element }).layoutLink.isConnected)).toBe(true);
    expect(await linked(page)).toEqual(nested("nested/SecondPage"));
    expect(await headingStyle(page, "second-page")).toEqual({ color: PAGE_RGB.second, background: LAYOUT_RGB, decoration: ROOT_RGB });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("a lazily loaded component of the page is styled when it first shows", async () => {
    const { page, problems } = await open("/nested/first");
    await delayStylesheets(page);
    await recordFirstFrames(page, ["third-page", "third-panel"]);
    await page.click("#to-nested-third");
    await page.waitForSelector("#third-panel");
    await page.waitForFunction(() => (window as unknown as { firstFrames: { seen: Record<string, { frame?: string }> } }).firstFrames.seen["third-panel"]?.frame);
    const { seen } = await firstFrames(page);
    expect(seen["third-page"]).toMatchObject({ committed: PAGE_RGB.third, frame: PAGE_RGB.third });
    expect(seen["third-panel"]).toMatchObject({ committed: PANEL_RGB, frame: PANEL_RGB });
    expect(await linked(page)).toEqual(nested("nested/ThirdPage"));
    expect(problems).toEqual([]);
    await page.close();
  });

  it("back and forth links each page's stylesheets once each, removes none still used, and leaving the layout removes its sheet", async () => {
    const { page, problems } = await open("/nested/first");
    const layoutSheet = nested("nested/FirstPage")[1];
    const layoutLink = () => page.evaluate((href) => document.querySelector(`link[href="${href}"]`), layoutSheet);
    const keep = await page.evaluateHandle((href) => document.querySelector(`link[href="${href}"]`), layoutSheet);
    const sameLayoutLink = () => page.evaluate(([kept, href]) => kept === document.querySelector(`link[href="${href}"]`), [keep, layoutSheet] as const);
    await page.click("#to-nested-second");
    await page.waitForSelector("#second-page");
    expect(await linked(page)).toEqual(nested("nested/SecondPage"));
    await page.goBack();
    await page.waitForSelector("#first-page");
    expect(await linked(page)).toEqual(nested("nested/FirstPage"));
    await page.goForward();
    await page.waitForSelector("#second-page");
    expect(await linked(page)).toEqual(nested("nested/SecondPage"));
    expect(await sameLayoutLink()).toBe(true);
    expect(await headingStyle(page, "second-page")).toEqual({ color: PAGE_RGB.second, background: LAYOUT_RGB, decoration: ROOT_RGB });
    await page.click("#nested-to-home");
    await page.waitForSelector("#home");
    expect(await linked(page)).toEqual(HOME());
    expect(await layoutLink()).toBeNull();
    await page.goBack();
    await page.waitForSelector("#second-page");
    expect(await linked(page)).toEqual(nested("nested/SecondPage"));
    expect(await headingStyle(page, "second-page")).toEqual({ color: PAGE_RGB.second, background: LAYOUT_RGB, decoration: ROOT_RGB });
    expect(await page.evaluate(() => document.querySelectorAll('link[rel="preload"], link[rel="prefetch"]').length)).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("hovering a link prefetches the page's stylesheets: the click's come from the cache", async () => {
    const { page, problems } = await open("/nested/first");
    const [secondSheet] = nested("nested/SecondPage").slice(-1);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    // The earlier tests' visits left the sheet in the browser's cache.
    await cdp.send("Network.clearBrowserCache");
    const served: string[] = [];
    const fromMemory = new Set<string>();
    cdp.on("Network.requestServedFromCache", ({ requestId }) => fromMemory.add(requestId));
    cdp.on("Network.responseReceived", ({ requestId, response }) => {
      if (new URL(response.url).pathname !== secondSheet) return;
      served.push(response.fromDiskCache || response.fromPrefetchCache || fromMemory.has(requestId) ? "cache" : "network");
    });
    const prefetched = page.waitForResponse((response) => new URL(response.url()).pathname === secondSheet, { timeout: 5000 });
    await page.hover("#to-nested-second");
    await (await prefetched).finished();
    expect(await page.$("#second-page")).toBeNull();
    await page.click("#to-nested-second");
    await page.waitForSelector("#second-page");
    expect(served[0]).toBe("network");
    expect(served.length).toBeGreaterThan(1);
    expect(served.slice(1).every((from) => from === "cache")).toBe(true);
    expect(await headingStyle(page, "second-page")).toEqual({ color: PAGE_RGB.second, background: LAYOUT_RGB, decoration: ROOT_RGB });
    expect(problems).toEqual([]);
    await cdp.detach();
    await page.close();
  });
});
