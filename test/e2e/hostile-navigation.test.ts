import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium } from "../support/browser";
import { fixtureStack } from "../support/fixture-stack";

// URLs the router did not build (fragments, // paths, redirect targets) in Chromium, on the fixture app.
describe.skipIf(!hasChromium)("odd URLs in client navigation", () => {
  const stack = fixtureStack();

  async function open(pathname: string): Promise<{ page: Page; problems: string[]; documents: string[] }> {
    const page = await stack.browser.newPage();
    const problems: string[] = [];
    const documents: string[] = [];
    page.on("console", (message) => {
 // the // page's own 404
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("request", (request) => {
      if (request.resourceType() === "document") documents.push(request.url());
    });
    await page.route("http://example.invalid/**", (route) => route.fulfill({ contentType: "text/html", body: "<p id=elsewhere>elsewhere</p>" }));
    await page.route("https://example.invalid/**", (route) => route.fulfill({ contentType: "text/html", body: "<p id=elsewhere>elsewhere</p>" }));
    await page.goto(`${stack.server.url}${pathname}`);
    await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    return { page, problems, documents };
  }
  const idle = (page: Page) => page.waitForFunction(() => document.documentElement.dataset.navigating === undefined);

  it("a % in the fragment: a link to it, setting it, and back onto it neither throw nor hang", async () => {
    const { page, problems } = await open("/go");
    await page.click("#to-percent-hash");
    await page.waitForSelector("h1:not(#go)");
    expect(new URL(page.url()).hash).toBe("#100%");
    await page.evaluate(() => {
      location.hash = "50%";
    });
    await page.goBack();
    await page.goBack();
    await page.waitForSelector("#go");
    await page.goForward();
    await page.waitForURL(/long#100%$/);
    await idle(page);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("a page at a path starting with // stays that page after going away and back", async () => {
    const { page, problems } = await open("//long");
    // The server matches //long as /long; the router must ask it for //long, not for host "long".
    await page.waitForSelector("#long");
    await page.click("#to-home");
    await page.waitForSelector("#home");
    await page.goBack();
    await page.waitForSelector("#long");
    expect(new URL(page.url()).pathname).toBe("//long");
    expect(problems).toEqual([]);
    await page.close();
  });

  for (const [button, landing] of [
    ["#submit-other-origin", "http://example.invalid/y"],
    ["#submit-absolute", "https://example.invalid/x"],
  ]) {
    it(`a form whose action redirects to another origin loads it (${landing})`, async () => {
      const { page, documents } = await open("/go");
      await page.click(button as string);
      await page.waitForSelector("#elsewhere");
      expect(page.url()).toBe(landing);
      expect(documents.at(-1)).toBe(landing);
      await page.close();
    });
  }

  it("a redirect to javascript: is not followed and the navigation ends", async () => {
    const { page, problems } = await open("/go");
    await page.click("#to-javascript");
    await idle(page);
    expect(await page.evaluate(() => (window as unknown as { hijacked?: number }).hijacked)).toBeUndefined();
    expect(new URL(page.url()).pathname).toBe("/go");
    await expect(page.textContent("#go")).resolves.toBe("Go");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("loader data holding a lone surrogate hydrates without a mismatch, loaded or navigated to", async () => {
    const full = await open("/items/surrogate");
    await expect(full.page.textContent("#item")).resolves.toContain("a\ufffdb");
    expect(full.problems).toEqual([]);
    await full.page.close();
    const { page, problems } = await open("/go");
    await page.click("#to-surrogate");
    await page.waitForSelector("#item");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("a page that fails to render has the error head's title, loaded or navigated to, and the next page its own", async () => {
    const full = await stack.browser.newPage();
    await full.goto(`${stack.server.url}/broken`);
    await expect(full.title()).resolves.toBe("Fixture error");
    await full.close();
    const { page } = await open("/go");
    await page.click("#to-broken-render");
    await page.waitForSelector("#route-error");
    await expect(page.title()).resolves.toBe("Fixture error");
    await page.click("#to-long");
    await page.waitForSelector("#long");
    await expect(page.title()).resolves.toBe("Long page");
    await page.close();
  });
});
