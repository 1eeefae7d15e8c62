import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium } from "../support/browser";
import { type ServerProcess, startServerProcess } from "../support/server-process";

const PAGE = "/diagnostics/page-cache";

describe.skipIf(!hasChromium)("a cached page in Chromium", () => {
  let server: ServerProcess;
  let browser: BrowserContext;
  let closeBrowser: () => Promise<void>;

  beforeAll(async () => {
    server = await startServerProcess({ ENABLE_DIAGNOSTIC_ROUTES: "true" });
    ({ browser, close: closeBrowser } = await launchChromium());
  });
  afterAll(async () => {
    await closeBrowser?.();
    await server?.stop();
  });

  async function open(): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(`${server.url}${PAGE}`);
    await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    return { page, problems };
  }

  it("hydrates a kept copy served with its own nonce, and its form shows a new render", async () => {
    const first = await open();
    const second = await open();
    const id = await first.page.textContent("#render-id");
    // The same render, under two different nonces, both allowed by their CSP.
    await expect(second.page.textContent("#render-id")).resolves.toBe(id);
    expect([...first.problems, ...second.problems]).toEqual([]);
    await second.page.click("#revalidate-form button");
    await second.page.waitForFunction((old) => document.querySelector("#render-id")?.textContent !== old, id, { timeout: 5_000 });
    expect(second.problems).toEqual([]);
    await first.page.close();
    await second.page.close();
  });
});
