import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium } from "../support/browser";
import { type DevSession, startDevSession, until } from "../support/dev-session";

const PAGE = "src/app/home/HomePage.tsx";
const LOADER = "src/app/home/HomePage.server.ts";
const STYLES = "src/app/styles.css";
const OVERLAY = "#outpost-dev-overlay";

// One `npm run dev` session and one open page, edited in turn as a developer would: what the
// page keeps is the count in #counter (React state) and a value set on window (no reload).
describe.skipIf(!hasChromium)("npm run dev: Fast Refresh, hot loader data, CSS and the error overlay", () => {
  let session: DevSession;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let tab: Page;
  const title = () => tab.textContent("#home-title");
  const kept = () => tab.evaluate(() => (window as { kept?: string }).kept);

  beforeAll(async () => {
    session = await startDevSession();
    browser = await launchChromium();
    tab = await browser.browser.newPage();
    await tab.goto(`${session.origin}/`);
    await tab.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    await tab.click("#counter");
    await tab.click("#counter");
    await tab.evaluate(() => Object.assign(window, { kept: "from before the edits" }));
  });

  afterAll(async () => {
    await browser?.close();
    session?.close();
  });

  it("applies a component edit in place, keeping the count and the page", async () => {
    session.edit(PAGE, (source) => source.replace("Welcome to Outpost", "Welcome to the refreshed Outpost"));
    await tab.waitForFunction(() => document.querySelector("#home-title")?.textContent === "Welcome to the refreshed Outpost", null, {
      timeout: 2_000,
    });
    await expect(tab.textContent("#counter")).resolves.toBe("Clicked 2 times");
    await expect(kept()).resolves.toBe("from before the edits");
  });

  it("swaps the stylesheet without a reload", async () => {
    const color = () => tab.$eval("#home-title", (element) => getComputedStyle(element).color);
    expect(await color()).not.toBe("rgb(1, 2, 3)");
    session.edit(STYLES, (source) => `${source}\n#home-title { color: rgb(1, 2, 3); }\n`);
    await tab.waitForFunction(() => getComputedStyle(document.querySelector("#home-title") as Element).color === "rgb(1, 2, 3)", null, {
      timeout: 2_000,
    });
    await expect(kept()).resolves.toBe("from before the edits");
  });

  it("re-fetches the loader's data after a loader edit, without a reload", async () => {
    session.edit(LOADER, (source) => source.replace("new Date().toISOString()", '"by the edited loader"'));
    await tab.waitForFunction(() => document.querySelector("time")?.textContent === "by the edited loader", null, { timeout: 10_000 });
    await expect(tab.textContent("#counter")).resolves.toBe("Clicked 2 times");
    await expect(kept()).resolves.toBe("from before the edits");
  });

  it("shows esbuild's error on an overlay, and the next good save removes it and applies the update", async () => {
    const good = readPage();
    session.edit(PAGE, (source) => `${source}\nexport const broken = ;\n`);
    const overlay = await tab.waitForSelector(OVERLAY, { timeout: 10_000 });
    const text = (await overlay.textContent()) ?? "";
    expect(text).toContain("Build failed");
    expect(text).toContain('Unexpected ";"');
    expect(text).toMatch(/src\/app\/home\/HomePage\.tsx:\d+:\d+/); // file, line, column
    expect(text).toContain("| export const broken = ;"); // the code frame
    expect(text).toMatch(/\|\s+\^/); // its caret

    session.edit(PAGE, () => good.replace("the refreshed Outpost", "the mended Outpost"));
    await tab.waitForFunction(() => document.querySelector("#home-title")?.textContent === "Welcome to the mended Outpost", null, {
      timeout: 10_000,
    });
    await tab.waitForSelector(OVERLAY, { state: "detached", timeout: 2_000 });
    await expect(tab.textContent("#counter")).resolves.toBe("Clicked 2 times");
    await expect(kept()).resolves.toBe("from before the edits");
  });

  it("shows an error thrown while applying an update, and recovers on the next good save", async () => {
    const good = readPage();
    session.edit(PAGE, (source) => source.replace("  return (", '  if (count >= 0) throw new Error("thrown while applying an update");\n  return ('));
    const overlay = await tab.waitForSelector(`${OVERLAY}[data-source=runtime]`, { timeout: 10_000 });
    expect(await overlay.textContent()).toContain("thrown while applying an update");

    session.edit(PAGE, () => good.replace("the mended Outpost", "the recovered Outpost"));
    await tab.waitForFunction(() => document.querySelector("#home-title")?.textContent === "Welcome to the recovered Outpost", null, {
      timeout: 10_000,
    });
    await tab.waitForSelector(OVERLAY, { state: "detached", timeout: 2_000 });
    await expect(kept()).resolves.toBe("from before the edits");
  });

  it("applies an edit saved before a newly opened page's event stream connected", async () => {
    const late = await browser.browser.newPage();
    // The page's event stream waits until the server that had the edit is gone.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      await late.route("**/__dev/reload", async (route) => {
        await released;
        await route.continue();
      });
      await open(late, "/");
      await late.click("#counter");
      await late.evaluate(() => Object.assign(window, { kept: "opened late" }));
      const restarts = session.ready.length;
      session.edit(PAGE, (source) => source.replace("the recovered Outpost", "the late Outpost"));
      await until(() => session.ready.length > restarts);
      release();
      await late.waitForFunction(() => document.querySelector("#home-title")?.textContent === "Welcome to the late Outpost", null, {
        timeout: 10_000,
      });
      await expect(late.textContent("#counter")).resolves.toBe("Clicked 1 time");
      await expect(late.evaluate(() => (window as { kept?: string }).kept)).resolves.toBe("opened late");
    } finally {
      release();
      await late.unrouteAll({ behavior: "ignoreErrors" });
      await late.close();
    }
  });

  it("navigates to a route changed before the page had loaded it, with the new code and no reload", async () => {
    const other = await browser.browser.newPage();
    try {
      await open(other, "/diagnostics");
      await other.evaluate(() => Object.assign(window, { kept: "on another route" }));
      const restarts = session.ready.length;
      session.edit(PAGE, (source) => source.replace("the late Outpost", "the navigated Outpost"));
      await until(() => session.ready.length > restarts);
      // The page's entry imports the home route's chunk by the URL it was built with.
      await other.click("a.brand");
      await other.waitForFunction(() => document.querySelector("#home-title")?.textContent === "Welcome to the navigated Outpost", null, {
        timeout: 10_000,
      });
      await expect(other.evaluate(() => (window as { kept?: string }).kept)).resolves.toBe("on another route");
    } finally {
      await other.close();
    }
  });

  it("reloads the page when a changed module exports something other than components", async () => {
    session.edit(PAGE, (source) => `${source.replace("the navigated Outpost", "the reloaded Outpost")}\nexport const answer = 42;\n`);
    await tab.waitForFunction(() => document.querySelector("#home-title")?.textContent === "Welcome to the reloaded Outpost", null, {
      timeout: 10_000,
    });
    await tab.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    await expect(kept()).resolves.toBeUndefined();
    expect(await title()).toBe("Welcome to the reloaded Outpost");
  });

  /**
   * Opens a page until it has hydrated: the restarts an earlier test's edits caused may still be
   * under way (seconds on a busy machine), refusing or cutting off the first tries.
   */
  async function open(page: Page, path: string): Promise<void> {
    for (const deadline = Date.now() + 20_000; ; ) {
      try {
        await page.goto(`${session.origin}${path}`, { waitUntil: "domcontentloaded", timeout: 10_000 });
        await page.waitForSelector("html[data-hydrated=true]", { timeout: 5_000 });
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }

  function readPage(): string {
    let source = "";
    session.edit(PAGE, (current) => {
      source = current;
      return current;
    });
    return source;
  }
}, 90_000);
