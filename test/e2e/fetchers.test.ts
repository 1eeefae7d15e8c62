import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium, markDocument, notReloaded, watchPage, type WatchedPage } from "../support/browser";
import { type ServerProcess, startServerProcess } from "../support/server-process";

// Fetchers and revalidation control on the product's diagnostics pages, in Chromium.
describe.skipIf(!hasChromium)("fetchers and revalidation in a browser", () => {
  let server: ServerProcess;
  let browser: { browser: BrowserContext; close(): Promise<void> };

  beforeAll(async () => {
    server = await startServerProcess({ ENABLE_DIAGNOSTIC_ROUTES: "true" });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function open(path: string): Promise<WatchedPage> {
    const watched = watchPage(await browser.browser.newPage());
    await watched.page.goto(`${server.url}${path}`);
    await watched.page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    await markDocument(watched.page);
    return watched;
  }
  const number = async (page: Page, selector: string) => Number(await page.textContent(selector));

  interface Snapshot {
    a: string;
    stateA: string;
    b: string;
    stateB: string;
  }

  /** Records what the counters show after every change of the page, for assertions afterwards. */
  const recordCounters = (page: Page) =>
    page.evaluate(() => {
      const seen: Snapshot[] = [];
      (window as unknown as { seen: Snapshot[] }).seen = seen;
      const read = (name: string) => ({
        value: document.getElementById(`counter-${name}`)?.textContent ?? "",
        state: document.querySelector(`[data-counter="${name}"] [data-fetcher-state]`)?.getAttribute("data-fetcher-state") ?? "",
      });
      new MutationObserver(() => {
        const a = read("a");
        const b = read("b");
        seen.push({ a: a.value, stateA: a.state, b: b.value, stateB: b.state });
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
  const seenCounters = (page: Page) => page.evaluate(() => (window as unknown as { seen: Snapshot[] }).seen);

  it("runs two fetchers side by side: optimistic values and states while pending, both stored, no reload or URL change", async () => {
    const { page, problems, documentRequests, dataRequests } = await open("/diagnostics/fetchers");
    const a0 = await number(page, "#counter-a");
    const b0 = await number(page, "#counter-b");
    const historyLength = await page.evaluate(() => history.length);
    await recordCounters(page);
    await page.click("#inc-a");
    await page.click("#inc-b");
    await page.waitForFunction(() => [...document.querySelectorAll("[data-fetcher-state]")].every((element) => element.getAttribute("data-fetcher-state") === "idle"));
    expect(await number(page, "#counter-a")).toBe(a0 + 1);
    expect(await number(page, "#counter-b")).toBe(b0 + 1);

    const seen = await seenCounters(page);
    // Both pending at once, each showing its optimistic value and its own state.
    expect(seen).toContainEqual({ a: String(a0 + 1), stateA: "submitting", b: String(b0 + 1), stateB: "submitting" });
    expect(seen.some((snapshot) => snapshot.stateA === "loading" || snapshot.stateB === "loading")).toBe(true);
    // Never back to an older value once clicked: the optimistic one holds until fresh data is shown.
    expect(seen.every((snapshot) => Number(snapshot.a) === a0 + 1)).toBe(true);
    expect(seen.filter((snapshot) => snapshot.stateB !== "idle").every((snapshot) => Number(snapshot.b) === b0 + 1)).toBe(true);

    expect(page.url()).toBe(`${server.url}/diagnostics/fetchers`);
    expect(await page.evaluate(() => history.length)).toBe(historyLength);
    expect(await notReloaded(page)).toBe(true);
    expect(documentRequests).toEqual(["/diagnostics/fetchers"]);
    // Each action ran with no loader; the page's loaders ran after it.
    expect(dataRequests.filter((request) => request === "/__data/diagnostics/fetchers?_routes=")).toHaveLength(2);
    expect(problems).toEqual([]);

    // A load runs only the page's own loader, and changes nothing on screen but the fetcher's data.
    await page.click("#peek");
    await page.waitForFunction(() => document.getElementById("peeked")?.getAttribute("data-fetcher-state") === "idle" && document.getElementById("peeked")?.textContent !== "");
    expect(await page.textContent("#peeked")).toBe(`a ${a0 + 1}, b ${b0 + 1}`);
    expect(dataRequests.at(-1)).toBe(`/__data/diagnostics/fetchers?_routes=${encodeURIComponent("diagnostics/FetchersPage")}`);
    expect(page.url()).toBe(`${server.url}/diagnostics/fetchers`);

    // Stored on the server: a fresh load shows both.
    await page.reload();
    expect(await number(page, "#counter-a")).toBe(a0 + 1);
    expect(await number(page, "#counter-b")).toBe(b0 + 1);
    await page.close();
  });

  it("lets a submit button's formMethod turn a fetcher's POST form into a load: the loader runs, the action does not", async () => {
    const { page, problems, documentRequests, dataRequests } = await open("/diagnostics/fetchers");
    const a0 = await number(page, "#counter-a");
    await page.click("#read-a");
    await page.waitForFunction(() => document.getElementById("read-value-a")?.textContent !== "", undefined, { timeout: 5_000 });
    expect(await page.textContent("#read-value-a")).toBe(`read ${a0}`);
    // The form's fields became the query of a GET for the page's own loader; no action ran.
    expect(dataRequests).toEqual([
      `/__data/diagnostics/fetchers?counter=a&next=${a0 + 1}&_routes=${encodeURIComponent("diagnostics/FetchersPage")}`,
    ]);
    expect(await number(page, "#counter-a")).toBe(a0);
    expect(page.url()).toBe(`${server.url}/diagnostics/fetchers`);
    expect(await notReloaded(page)).toBe(true);
    expect(documentRequests).toEqual(["/diagnostics/fetchers"]);
    expect(problems).toEqual([]);
    // Nothing was counted on the server either.
    await page.reload();
    expect(await number(page, "#counter-a")).toBe(a0);
    await page.close();
  });

  it("does not re-run a layout's loader between two of its children; re-runs it for a new search and revalidate(), unless shouldRevalidate declines", async () => {
    const { page, problems, documentRequests, dataRequests } = await open("/diagnostics/revalidation/first");
    const runs = await number(page, "#layout-runs");
    await page.click("#to-second");
    await page.waitForFunction(() => document.getElementById("child-name")?.textContent === "second child");
    expect(await number(page, "#layout-runs")).toBe(runs);
    expect(dataRequests).toEqual([`/__data/diagnostics/revalidation/second?_routes=${encodeURIComponent("diagnostics/revalidation/SecondChild")}`]);
    // The server did not run it either: the next run is the very next number.
    await page.click("#to-second-search");
    await page.waitForURL(`${server.url}/diagnostics/revalidation/second?tab=other`);
    const layoutRunsAre = (expected: number) =>
      page.waitForFunction((value) => document.getElementById("layout-runs")?.textContent === String(value), expected);
    await layoutRunsAre(runs + 1);
    // revalidate() runs every loader; a route's shouldRevalidate may keep its data on a navigation that would re-run it.
    await page.click("#revalidate");
    await layoutRunsAre(runs + 2);
    await page.click("#to-first-still");
    await page.waitForFunction(() => document.getElementById("child-name")?.textContent === "first child");
    expect(page.url()).toBe(`${server.url}/diagnostics/revalidation/first?still=1`);
    expect(await number(page, "#layout-runs")).toBe(runs + 2);
    // The search changed: every route but the layout that declined (the fixture app's root layout is "Layout").
    const asked = ["Layout", "diagnostics/DiagnosticsLayout", "diagnostics/revalidation/FirstChild"].map(encodeURIComponent).join(",");
    expect(dataRequests.at(-1)).toBe(`/__data/diagnostics/revalidation/first?still=1&_routes=${asked}`);
    expect(await notReloaded(page)).toBe(true);
    expect(documentRequests).toEqual(["/diagnostics/revalidation/first"]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
