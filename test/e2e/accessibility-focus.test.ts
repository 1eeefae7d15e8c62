import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, holdRequests } from "../support/browser";
import { DIST } from "../support/paths";
import { reportingStack } from "../support/reporting-stack";

// On the product's build, not the fixture app's: what a screen reader is told is judged on the pages visitors are served.
// What a screen reader is told once JavaScript has the page: where focus goes, what is announced.
describe.skipIf(!hasChromium)("focus and announcements after client navigations and form answers", () => {
  const stack = reportingStack({}, { dist: DIST });

  async function hydrated(path: string): Promise<Page> {
    const page = await stack.browser.newPage();
    await page.goto(`${stack.server.url}${path}`);
    await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    return page;
  }
  const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? "");

  it("moves focus to the new page's main heading after a click and after going back, without a reload", async () => {
    const page = await hydrated("/");
    await page.click('header a[href="/feedback"]');
    await page.waitForSelector("#feedback-title");
    await page.waitForFunction(() => document.documentElement.dataset.navigating === undefined);
    expect(await focusedId(page)).toBe("feedback-title");
    await page.goBack();
    await page.waitForSelector("#home-title");
    await page.waitForFunction(() => document.activeElement?.id === "home-title", undefined, { timeout: 5_000 });
    // Focusable by script only: a Tab still starts from the document's first link.
    expect(await page.getAttribute("#home-title", "tabindex")).toBe("-1");
    await page.close();
  });

  it("focuses the first invalid field once a submission's errors render", async () => {
    const page = await hydrated("/feedback");
    await page.fill("#feedback-message", "It broke");
    await page.fill("#feedback-email", "not-an-address");
    await page.click('button[type="submit"]');
    await page.waitForSelector('[data-error-for="email"]');
    await page.waitForFunction(() => document.activeElement?.id === "feedback-email", undefined, { timeout: 5_000 });
    expect(await page.getAttribute("#feedback-email", "aria-describedby")).toBe("feedback-email-error");
    await page.close();
  });

  it("announces a navigation slower than 200 ms in a polite live region, and clears it when the page is there", async () => {
    const page = await hydrated("/");
    const status = page.locator("[data-navigation-status]");
    expect(await status.getAttribute("role")).toBe("status");
    expect(await status.textContent()).toBe("");
    const release = await holdRequests(page, "**/__data/**");
    await page.click('header a[href="/feedback"]');
    await page.waitForFunction(() => document.querySelector("[data-navigation-status]")?.textContent === "Loading page");
    release();
    await page.waitForSelector("#feedback-title");
    await page.waitForFunction(() => document.querySelector("[data-navigation-status]")?.textContent === "");
    await page.close();
  });
});
