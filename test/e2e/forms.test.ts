import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium, notReloaded, openMarked } from "../support/browser";
import { type ServerProcess, startServerProcess } from "../support/server-process";

// The platform's <Form> on the diagnostics form page, in the fixture app's build; the product's
// feedback form is tested in test/app/feedback/feedback-browser.test.ts.
describe.skipIf(!hasChromium)("forms in a browser with JavaScript", () => {
  let server: ServerProcess;
  let browser: BrowserContext;
  let closeBrowser: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    server = await startServerProcess({ ENABLE_DIAGNOSTIC_ROUTES: "true" });
    ({ browser, close: closeBrowser } = await launchChromium());
  });
  afterAll(async () => {
    await closeBrowser?.();
    await server?.stop();
  });

  const open = (path: string) => openMarked(browser, `${server.url}${path}`);
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

  it("a submit button's formmethod makes the POST form a GET navigation, with the button's value", async () => {
    const page = await open("/diagnostics/form");
    let posts = 0;
    page.on("request", (request) => {
      if (request.method() === "POST") posts += 1;
    });
    await page.fill("#note", "look first");
    await page.click('button[value="preview"]');
    await page.waitForSelector("#note-preview");
    expect(new URL(page.url()).search).toBe("?note=look+first&intent=preview");
    expect(await page.textContent("#note-preview")).toBe("preview: look first");
    expect(posts).toBe(0);
    expect(await notReloaded(page)).toBe(true);
    await page.close();
  });

  it("leaves a submission to another browsing context (the button's formtarget) to the browser: a new tab, this page untouched", async () => {
    const page = await open("/diagnostics/form");
    await page.fill("#note", "in a new tab");
    await page.evaluate(() => document.querySelector('button[value="preview"]')?.setAttribute("formtarget", "_blank"));
    const [opened] = await Promise.all([browser.waitForEvent("page"), page.click('button[value="preview"]')]);
    await opened.waitForLoadState();
    expect(new URL(opened.url()).search).toBe("?note=in+a+new+tab&intent=preview");
    expect(new URL(page.url()).search).toBe("");
    expect(await page.inputValue("#note")).toBe("in a new tab");
    expect(await notReloaded(page)).toBe(true);
    await opened.close();
    await page.close();
  });

  it("when only the browser can submit it (an answer that is no data), submits natively with the button pressed", async () => {
    const page = await open("/diagnostics/form");
    // A proxy's error page instead of the data answer: the router hands the form back to the browser.
    await page.route("**/__data/diagnostics/form", (route) =>
      route.request().method() === "POST" ? route.fulfill({ status: 502, contentType: "text/html", body: "<h1>Bad gateway</h1>" }) : route.continue(),
    );
    await page.fill("#note", "sent by the browser");
    await page.click('button[value="save"]');
    // A new document: the one openMarked marked is gone.
    await page.waitForFunction(() => !(window as unknown as { notReloaded?: boolean }).notReloaded && document.readyState === "complete");
    // The button's name and value went too: without them the action refuses the form and nothing is saved.
    expect(await page.locator("#saved-note").textContent({ timeout: 2_000 }).catch(() => null)).toBe("saved: sent by the browser");
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
