import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium } from "../support/browser";
import { type DevSession, startDevSession, until } from "../support/dev-session";

const HEAD_PAGE = "src/diagnostics/ClientErrorPage.tsx"; // exports `head` beside its component
const ROOT_LAYOUT = "src/app/root/RootLayout.tsx"; // exports head, errorHead and ErrorBoundary
const ROOT_ERROR_PAGE = "src/app/root/ErrorPage.tsx"; // the root layout's ErrorBoundary
const ROUTE_TABLE = "src/app/routes.ts";

// One `npm run dev` session and two open pages: the home page (its counter is React state the
// root layout holds inside it) and a page that exports `head`. A value set on window shows
// that neither reloaded.
describe.skipIf(!hasChromium)("npm run dev: Fast Refresh of route modules with head or error exports, and of the root layout", () => {
  let session: DevSession;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let home: Page;
  let diagnostic: Page;
  const kept = (page: Page) => page.evaluate(() => (window as { kept?: string }).kept);

  beforeAll(async () => {
    session = await startDevSession();
    browser = await launchChromium();
    [home, diagnostic] = [await browser.browser.newPage(), await browser.browser.newPage()];
    for (const [page, path] of [
      [home, "/"],
      [diagnostic, "/diagnostics/client-error"],
    ] as const) {
      await page.goto(`${session.origin}${path}`);
      await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
      await page.evaluate(() => Object.assign(window, { kept: "from before the edits" }));
    }
    await home.click("#counter");
    await home.click("#counter");
  }, 120_000); // a dev session's start takes long on a busy machine

  afterAll(async () => {
    await browser?.close();
    session?.close();
  });

  it("applies an edit of the text and the head of a page that exports head, without a reload", async () => {
    expect(await diagnostic.title()).toBe("Client error diagnostic");
    session.edit(HEAD_PAGE, (source) =>
      source
        .replace('title: "Client error diagnostic"', 'title: "Edited client error diagnostic"')
        .replace(">Client error diagnostic<", ">Client error diagnostic, edited<"),
    );
    await diagnostic.waitForFunction(
      () =>
        document.title === "Edited client error diagnostic" &&
        document.querySelector("#client-error-title")?.textContent === "Client error diagnostic, edited",
      null,
      { timeout: 10_000 },
    );
    await expect(kept(diagnostic)).resolves.toBe("from before the edits");
  });

  it("applies an edit of the root layout in place, keeping the state of the page inside it", async () => {
    session.edit(ROOT_LAYOUT, (source) => source.replace('<footer className="site-footer">Outpost</footer>', '<footer className="site-footer">Outpost, edited</footer>'));
    for (const page of [home, diagnostic]) {
      await page.waitForFunction(() => document.querySelector(".site-footer")?.textContent === "Outpost, edited", null, { timeout: 10_000 });
      await expect(kept(page)).resolves.toBe("from before the edits");
    }
    await expect(home.textContent("#counter")).resolves.toBe("Clicked 2 times");
    // The edited page's own edit stays applied: the layout's chunk does not bring back old code.
    await expect(diagnostic.title()).resolves.toBe("Edited client error diagnostic");
  });

  it("uses an edited ErrorBoundary the next time an error needs it, without a reload", async () => {
    session.edit(ROOT_ERROR_PAGE, (source) => source.replace(">Something went wrong<", ">Something went wrong, edited<"));
    await until(() => session.ready.some((line) => line.includes(ROOT_ERROR_PAGE)), 20_000);
    await diagnostic.click("#throw-render-error");
    await diagnostic.waitForFunction(() => document.querySelector("#error-title")?.textContent === "Something went wrong, edited", null, {
      timeout: 10_000,
    });
    await expect(kept(diagnostic)).resolves.toBe("from before the edits");
    expect(session.log.join("\n")).not.toContain("open pages reload");
  });

  it("reloads for a changed route table, and the dev log says why", async () => {
    session.edit(ROUTE_TABLE, (source) => {
      const edited = source.replace('index("home/HomePage.tsx"),', 'index("home/HomePage.tsx"), route("welcome", "home/HomePage.tsx"),');
      expect(edited).not.toBe(source);
      return edited;
    });
    await until(() => session.log.some((line) => line.includes("open pages reload")), 20_000);
    expect(session.log.find((line) => line.includes("open pages reload"))).toContain("src/app/routes.ts: the route table changed");
    await home.waitForFunction(() => (window as { kept?: string }).kept === undefined, null, { timeout: 10_000 });
  });
}, 90_000);
