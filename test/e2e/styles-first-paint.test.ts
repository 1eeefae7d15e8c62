import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium, watchPage } from "../support/browser";
import { type ServerProcess, startServerProcess } from "../support/server-process";

/** What /styled of the fixture app (test/fixtures/app/styled) computes when its stylesheets apply. */
const EXPECTED = {
  // Card.module.css: .card's own padding, .frame's border (composes), Base.module.css's .surface background.
  card: { borderTopColor: "rgb(22, 163, 74)", borderTopWidth: "3px", backgroundColor: "rgb(255, 247, 237)", padding: "12px" },
  // A :global(.styled-page) rule of the module.
  title: { letterSpacing: "2px" },
  // Tailwind: utilities found in StyledPage.tsx, the @utility card-gap, the theme's emerald-700.
  utilities: { display: "flex", rowGap: "12px", columnGap: "12px", paddingTop: "16px", fontSize: "14px", color: "oklch(0.508 0.118 165.612)" },
  // @apply text-brand font-bold, --color-brand from the stylesheet's @theme.
  heading: { color: "rgb(29, 78, 216)", fontWeight: "700" },
};

type Styles = Record<keyof typeof EXPECTED, Record<string, string | undefined>>;

/** The computed styles EXPECTED names, read from the page as it is now. */
function computedStyles(page: Page): Promise<Styles> {
  return page.evaluate((expected) => {
    const read = (selector: string, properties: Record<string, string>) => {
      const element = document.querySelector(selector);
      if (!element) return { missing: selector };
      const style = getComputedStyle(element) as unknown as Record<string, string>;
      return Object.fromEntries(Object.keys(properties).map((name) => [name, style[name]]));
    };
    return {
      card: read("#card", expected.card),
      title: read("#card-title", expected.title),
      utilities: read("#utilities", expected.utilities),
      heading: read(".styled-heading", expected.heading),
    };
  }, EXPECTED);
}

const linkedStylesheets = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((link) => new URL(link.href).pathname));

/** Whether the browser held the first paint for each stylesheet (Resource Timing's renderBlockingStatus). */
const renderBlocking = (page: Page) =>
  page.evaluate(() =>
    Object.fromEntries(
      (performance.getEntriesByType("resource") as (PerformanceResourceTiming & { renderBlockingStatus?: string })[])
        .filter((entry) => entry.initiatorType === "link" && new URL(entry.name).pathname.endsWith(".css"))
        .map((entry) => [new URL(entry.name).pathname, entry.renderBlockingStatus]),
    ),
  );

/** The stylesheets the server's HTML links, in order. */
const stylesheetsIn = (html: string) => (html.match(/<link\b[^>]*\brel="stylesheet"[^>]*>/g) ?? []).map((tag) => tag.match(/\bhref="([^"]+)"/)?.[1] ?? "");

// A page styled by a CSS Module (composes within the file and from another), Tailwind CSS v4 and
// global CSS is styled on its first paint from the server's HTML, with JavaScript off and on, and
// hydration neither warns nor changes its stylesheets.
describe.skipIf(!hasChromium)("/styled on its first paint, in Chromium", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess();
  });
  afterAll(() => server?.stop());

  describe("with JavaScript disabled", () => {
    let browser: BrowserContext;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ browser, close } = await launchChromium({ javaScriptEnabled: false }));
    });
    afterAll(() => close?.());

    it("computes the module's, Tailwind's and the global styles from the server's HTML alone", async () => {
      const page = await browser.newPage();
      const watched = watchPage(page);
      const response = await page.goto(`${server.url}/styled`, { waitUntil: "load" });
      expect(response?.status()).toBe(200);
      expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();
      expect(await computedStyles(page)).toEqual(EXPECTED);
      const served = stylesheetsIn((await response?.text()) ?? "");
      expect(await linkedStylesheets(page)).toEqual(served);
      expect(await renderBlocking(page)).toEqual(Object.fromEntries(served.map((url) => [url, "blocking"])));
      expect(watched.problems).toEqual([]);
      await page.close();
    });
  });

  describe("with JavaScript enabled", () => {
    let browser: BrowserContext;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ browser, close } = await launchChromium());
    });
    afterAll(() => close?.());

    it("computes the same styles, and after hydrating links the same stylesheets in the same order, each once, with no warning", async () => {
      const page = await browser.newPage();
      const watched = watchPage(page);
      const response = await page.goto(`${server.url}/styled`);
      const served = stylesheetsIn((await response?.text()) ?? "");
      expect(served).toHaveLength(4);
      await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
      expect(await computedStyles(page)).toEqual(EXPECTED);
      const linked = await linkedStylesheets(page);
      expect(linked).toEqual(served);
      expect(new Set(linked).size).toBe(linked.length);
      expect(await renderBlocking(page)).toEqual(Object.fromEntries(served.map((url) => [url, "blocking"])));
      expect(await page.getAttribute("#card", "class")).toMatch(/^Card_card_\S+ Card_frame_\S+ Base_surface_\S+$/);
      expect(watched.problems).toEqual([]);
      await page.close();
    });
  });
});
