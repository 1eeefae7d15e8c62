import type { BrowserContext, ConsoleMessage, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium } from "../support/browser";
import { type ServerProcess, startServerProcess } from "../support/server-process";

describe.skipIf(!hasChromium)("in Chromium", () => {
  let server: ServerProcess;
  let browser: BrowserContext;
  let closeBrowser: () => Promise<void>;

  beforeAll(async () => {
    server = await startServerProcess();
    ({ browser, close: closeBrowser } = await launchChromium());
  });
  afterAll(async () => {
    await closeBrowser?.();
    await server?.stop();
  });

  async function open(path: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("console", (message: ConsoleMessage) => {
      // A 404 page's own status is logged by Chromium as a failed load: that one is expected.
      if (message.location().url === `${server.url}${path}`) return;
      if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(`${server.url}${path}`);
    await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    return { page, problems };
  }

  it("hydrates the home page without errors or hydration warnings, and it responds", async () => {
    const { page, problems } = await open("/");
    await expect(page.title()).resolves.toBe("Fixture");
    await page.click("#count");
    await page.click("#count");
    await expect(page.textContent("#count")).resolves.toBe("2");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("hydrates the not-found page", async () => {
    const { page, problems } = await open("/no/such/page");
    await expect(page.textContent("h1")).resolves.toBe("Nothing here");
    expect(problems).toEqual([]);
    await page.close();
  });
});
