import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium } from "../support/browser";
import { type ServerProcess, startServerProcess } from "../support/server-process";

// The platform's <Form> on the diagnostics form page, in the fixture app's build; the product's
// feedback form is tested in test/app/feedback/feedback-browser.test.ts.
let server: ServerProcess;
const browsers: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  server = await startServerProcess({ ENABLE_DIAGNOSTIC_ROUTES: "true" });
});
afterAll(async () => {
  await Promise.all(browsers.map((browser) => browser.close()));
  await server?.stop();
});

async function browserContext(javaScriptEnabled: boolean): Promise<BrowserContext> {
  const launched = await launchChromium({ javaScriptEnabled });
  browsers.push(launched);
  return launched.browser;
}

describe.skipIf(!hasChromium)("forms in a browser with JavaScript", () => {
  let browser: BrowserContext;
  beforeAll(async () => {
    browser = await browserContext(true);
  });

  async function open(path: string): Promise<Page> {
    const page = await browser.newPage();
    await page.goto(`${server.url}${path}`);
    await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    // Survives only as long as the document does: a reload would lose it.
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });
    return page;
  }
  const notReloaded = (page: Page) => page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true);
  const savedCount = async (page: Page) => Number((await page.textContent("#saved-count"))?.replace("saved ", ""));

  it("submits without a reload: validation messages, pending state, one submit, revalidated loader data", async () => {
    const page = await open("/diagnostics/form");
    await page.click('button[value="save"]');
    await page.waitForSelector('[data-error-for="note"]');
    const before = await savedCount(page);
    // Held back, so the pending state can be seen and a second submit tried.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let posts = 0;
    await page.route("**/__data/diagnostics/form", async (route) => {
      if (route.request().method() === "POST") posts += 1;
      await held;
      await route.continue();
    });
    await page.fill("#note", "from the browser");
    await page.click('button[value="save"]');
    await page.waitForSelector("form[data-pending=true]");
    expect(await page.textContent("#form-state")).toBe("pending");
    await page.click('button[value="save"]');
    release();
    await page.waitForSelector("#saved-note");
    expect(await page.textContent("#saved-note")).toBe("saved: from the browser");
    expect(await savedCount(page)).toBe(before + 1);
    expect(posts).toBe(1);
    expect(await page.isVisible('[data-error-for="note"]')).toBe(false);
    expect(await page.textContent("#form-state")).toBe("idle");
    expect(await notReloaded(page)).toBe(true);
    await page.close();
  });

  it("follows an action's redirect as a navigation", async () => {
    const page = await open("/diagnostics/form");
    await page.fill("#note", "and away");
    await page.click('button[value="redirect"]');
    await page.waitForURL(`${server.url}/diagnostics/form?redirected=1`);
    expect(await notReloaded(page)).toBe(true);
    await page.close();
  });
});
