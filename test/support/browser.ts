import type { BrowserContext, Page, Request } from "playwright-core";
import { CHROMIUM_PATH, hasChromium } from "../../scripts/bench/lib/chromium.mjs";

// Debian's Chromium with the flags this network needs and a fresh profile; shared with the
// benchmarks, which drive it too.
export { CHROMIUM_PATH, hasChromium, launchChromium } from "../../scripts/bench/lib/chromium.mjs";

if (!hasChromium) {
  console.warn(
    `Browser tests skipped: no Chromium at ${CHROMIUM_PATH}. Install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH.`,
  );
}

/** A page's console errors (with where they came from), uncaught errors and failed requests, collected as they come. */
export function watchErrors(page: Page): { consoleErrors: string[]; failedRequests: string[] } {
  const consoleErrors: string[] = [];
  const failedRequests: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(`${message.text()} ${message.location().url}`);
  });
  page.on("pageerror", (error) => consoleErrors.push(error.message));
  page.on("requestfailed", (request) => failedRequests.push(`${request.url()} ${request.failure()?.errorText}`));
  return { consoleErrors, failedRequests };
}

/** What a browser test asserts on: console errors and warnings, and the data and document requests made. */
export interface WatchedPage {
  page: Page;
  problems: string[];
  dataRequests: string[];
  documentRequests: string[];
}

export function watchPage(page: Page, ignoreConsoleFrom: (url: string) => boolean = () => false): WatchedPage {
  const watched: WatchedPage = { page, problems: [], dataRequests: [], documentRequests: [] };
  page.on("console", (message) => {
    if (ignoreConsoleFrom(message.location().url)) return;
    if (message.type() === "error" || message.type() === "warning") watched.problems.push(message.text());
  });
  page.on("pageerror", (error) => watched.problems.push(error.message));
  page.on("request", (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/__data")) watched.dataRequests.push(url.pathname + url.search);
    if (request.resourceType() === "document") watched.documentRequests.push(url.pathname + url.search);
  });
  return watched;
}

/** Holds every request matching `pattern` until the returned function is called: a navigation stays pending meanwhile. */
export async function holdRequests(page: Page, pattern: string): Promise<() => void> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(pattern, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Marks the page's document: the mark lives only as long as the document, so `notReloaded` tells a reload apart. */
export async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { notReloaded: boolean }).notReloaded = true;
  });
}

/** Whether the page still shows the document `markDocument` marked. */
export const notReloaded = (page: Page) => page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true);

/** Opens `url` in a new page, waits until it has hydrated and marks its document. */
export async function openMarked(browser: BrowserContext, url: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
  await markDocument(page);
  return page;
}
