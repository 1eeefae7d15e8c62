import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium, type WatchedPage, watchPage } from "../support/browser";
import { type DevSession, startDevSession } from "../support/dev-session";
import { FIXTURE_APP } from "../support/paths";

// The fixture app's nested pages under `npm run dev`, where React's development build warns of any
// hydration mismatch: the same stylesheet order as production (route-stylesheets.test.ts), kept
// by hydration and across client navigations.
describe.skipIf(!hasChromium)("npm run dev: stylesheets per route", () => {
  let session: DevSession;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  beforeAll(async () => {
    session = await startDevSession({ appDir: FIXTURE_APP });
    chromium = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await chromium?.close();
    session?.close();
  });

  const linked = (page: Page) => page.$$eval('link[rel="stylesheet"]', (links) => links.map((link) => link.getAttribute("href")));
  const payloadStyles = (page: Page) => page.evaluate(() => (window as unknown as { __OUTPOST__: { state: { styles: string[] } } }).__OUTPOST__.state.styles);
  const headingStyle = (page: Page, id: string) =>
    page.$eval(`#${id}`, (heading) => {
      const style = getComputedStyle(heading);
      return { color: style.color, background: style.backgroundColor, decoration: style.textDecorationColor };
    });

  it("links the root's, the layout's and the page's stylesheets in that order, with no hydration warning, and keeps the layout's across navigations", async () => {
    const { page, problems }: WatchedPage = watchPage(await chromium.browser.newPage());
    await page.addInitScript(() => {
      document.addEventListener("readystatechange", () => {
        if (document.readyState === "interactive") (window as unknown as { served: Element[] }).served = [...document.querySelectorAll('link[rel="stylesheet"]')];
      });
    });
    await page.goto(`${session.origin}/nested/first`);
    await page.waitForSelector("html[data-hydrated=true]", { timeout: 15_000 });
    const styles = await payloadStyles(page);
    expect(styles.length).toBeGreaterThanOrEqual(3);
    expect(await linked(page)).toEqual(styles);
    expect(await page.evaluate(() => (window as unknown as { served: Element[] }).served.every((link, at) => link === document.querySelectorAll('link[rel="stylesheet"]')[at]))).toBe(true);
    expect(await headingStyle(page, "first-page")).toEqual({ color: "rgb(128, 0, 0)", background: "rgb(0, 0, 128)", decoration: "rgb(1, 1, 1)" });

    const kept = await page.evaluateHandle(() => document.querySelectorAll('link[rel="stylesheet"]')[1]);
    await page.click("#to-nested-second");
    await page.waitForSelector("#second-page");
    expect(await headingStyle(page, "second-page")).toEqual({ color: "rgb(0, 128, 0)", background: "rgb(0, 0, 128)", decoration: "rgb(1, 1, 1)" });
    expect(new Set(await linked(page)).size).toBe(styles.length);
    expect(await page.evaluate((link) => link === document.querySelectorAll('link[rel="stylesheet"]')[1], kept)).toBe(true);
    await page.goBack();
    await page.waitForSelector("#first-page");
    expect(await linked(page)).toEqual(styles);
    expect(await headingStyle(page, "first-page")).toEqual({ color: "rgb(128, 0, 0)", background: "rgb(0, 0, 128)", decoration: "rgb(1, 1, 1)" });
    expect(problems).toEqual([]);
    await page.close();
  });
});
