import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a bench script in plain JavaScript, without types
import { BROWSER_UA } from "../../scripts/bench/lib/proc.mjs";
import { appPages, axeViolations, serveWithoutScripts } from "../support/accessibility";
import { hasChromium, holdRequests, launchChromium } from "../support/browser";
import { DIST } from "../support/paths";
import { reportingServer } from "../support/reporting-stack";

// On the product's build, not the fixture app's: accessibility is judged on what visitors are served.
// Every page of src/app/routes.ts (diagnostics included), and the states a visitor meets on
// them, checked by axe-core: zero violations of any impact.
const pages = await appPages();

// Concurrent: each test has a page of its own, and most of the time is the browser's.
describe.skipIf(!hasChromium)("accessibility (axe-core) of every page", { concurrent: true }, () => {
  // A DSN, so the feedback form (and the SDK) render as in production.
  const stack = reportingServer({}, { dist: DIST });
  let browser: BrowserContext;
  let closeBrowser: () => Promise<void>;
  beforeAll(async () => {
    ({ browser, close: closeBrowser } = await launchChromium());
  });
  afterAll(() => closeBrowser?.());

  /** A page as a visitor's browser gets it: headless Chromium's own User-Agent is a crawler's. */
  async function visitorPage(javaScript: boolean): Promise<Page> {
    const page = await browser.newPage();
    await page.setExtraHTTPHeaders({ "User-Agent": BROWSER_UA });
    if (!javaScript) await serveWithoutScripts(page);
    return page;
  }

  async function hydrated(path: string): Promise<Page> {
    const page = await visitorPage(true);
    await page.goto(`${stack.server.url}${path}`);
    await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    return page;
  }

  async function withoutJavaScript(path: string): Promise<Page> {
    const page = await visitorPage(false);
    await page.goto(`${stack.server.url}${path}`);
    return page;
  }

  /** Violations in the light colour scheme, plus any contrast failure in the dark one. */
  async function violationsInBothSchemes(page: Page): Promise<string[]> {
    const light = await axeViolations(page);
    await page.emulateMedia({ colorScheme: "dark" });
    const dark = (await axeViolations(page, ["color-contrast"])).map((line) => `dark scheme: ${line}`);
    return [...light, ...dark];
  }

  it("walks at least the home, feedback and diagnostic pages of the route table", () => {
    const patterns = pages.map((page) => page.pattern);
    expect(patterns).toEqual(expect.arrayContaining(["/", "/feedback", "/diagnostics", "/diagnostics/deferred"]));
    expect(patterns).not.toContain("/diagnostics/api/echo");
  });

  const walked = [...pages.map((page) => page.path), "/no-such-page"];

  it.each(walked)("%s, hydrated", async (path) => {
    const page = await hydrated(path);
    expect(await violationsInBothSchemes(page)).toEqual([]);
    await page.close();
  });

  it.each(walked)("%s, without JavaScript", async (path) => {
    const page = await withoutJavaScript(path);
    expect(await page.locator("script").count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it("the 404, 403 and 500 pages are among those walked, with their statuses", async () => {
    for (const [path, status] of [
      ["/no-such-page", 404],
      ["/diagnostics/forbidden", 403],
      ["/diagnostics/server-error", 500],
    ] as const) {
      expect(walked).toContain(path);
      expect((await fetch(`${stack.server.url}${path}`)).status).toBe(status);
    }
  });

  it("the feedback form after a 422, without JavaScript", async () => {
    const page = await withoutJavaScript("/feedback");
    await page.fill('input[name="email"]', "not-an-address");
    const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), page.click('button[type="submit"]')]);
    expect(response.status()).toBe(422);
    await page.waitForSelector('[data-error-for="message"]');
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it("the feedback form after a 422, hydrated", async () => {
    const page = await hydrated("/feedback");
    await page.fill('input[name="email"]', "not-an-address");
    await page.click('button[type="submit"]');
    await page.waitForSelector('[data-error-for="email"]');
    expect(await violationsInBothSchemes(page)).toEqual([]);
    await page.close();
  });

  it("a diagnostics form with its validation message, hydrated", async () => {
    const page = await hydrated("/diagnostics/form");
    await page.click('button[value="save"]');
    await page.waitForSelector('[data-error-for="note"]');
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it("a deferred page before its value, without JavaScript: the fallback such a visitor keeps", async () => {
    const page = await withoutJavaScript("/diagnostics/deferred");
    expect(await page.isVisible("#slow-fallback")).toBe(true);
    expect(await page.isVisible("#slow-value")).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it("a deferred page before its value, hydrated: a navigation whose data request ends before the value", async () => {
    const page = await hydrated("/diagnostics");
    // The streamed answer's first line only (the awaited part): the value stays pending, its fallback on screen.
    await page.route("**/__data/diagnostics/deferred*", async (route) => {
      const response = await route.fetch();
      const [first] = (await response.text()).split("\n");
      await route.fulfill({ response, body: `${first}\n` });
    });
    await page.click('a[href="/diagnostics/deferred"]');
    await page.waitForSelector("#fast");
    expect(await page.isVisible("#slow-fallback")).toBe(true);
    expect(await violationsInBothSchemes(page)).toEqual([]);
    await page.close();
  });

  it("a deferred page after its value, hydrated", async () => {
    const page = await hydrated("/diagnostics/deferred");
    await page.waitForSelector("#slow-value");
    expect(await page.locator("#slow-fallback").count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it("a navigation pending, with its progress bar", async () => {
    const page = await hydrated("/");
    const release = await holdRequests(page, "**/__data/**");
    await page.click('a[href="/feedback"]');
    await page.waitForSelector('[role="progressbar"]');
    expect(await axeViolations(page)).toEqual([]);
    release();
    await page.waitForSelector("textarea[name=message]");
    await page.close();
  });

  it("the error page a render error in the browser leaves, hydrated", async () => {
    const page = await hydrated("/diagnostics/client-error");
    await page.click("#throw-render-error");
    // Its feedback form is a chunk of its own, loaded when the error page renders.
    await page.waitForSelector("form.feedback-form");
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });
});
