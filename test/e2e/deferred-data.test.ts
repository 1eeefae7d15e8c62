import { describe, expect, it } from "vitest";
import { hasChromium, watchPage } from "../support/browser";
import { eventsWithMessage, receivedItems } from "../support/envelopes";
import { browserMarkerArrived, isMarkerEvent, isMarkerText, serverMarkerArrived } from "../support/report-markers";
import { reportingStack } from "../support/reporting-stack";

// /diagnostics/deferred: `fast` at once, `slow` a second later (or failing, with ?fail=1).
describe.skipIf(!hasChromium)("deferred loader data in Chromium", () => {
  const stack = reportingStack({});
  // A visitor's browser: headless Chromium's own User-Agent is a crawler's, which gets the whole document at once.
  const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
  const visitorPage = async () => {
    const page = await stack.browser.newPage();
    await page.setExtraHTTPHeaders({ "User-Agent": CHROME });
    return watchPage(page);
  };
  const fromBrowser = (item: { envelope: { request: { headers: Record<string, unknown> } } }) =>
    item.envelope.request.headers["x-sentry-forwarded-for"] !== undefined;

  it("server-renders the fallback, then the value streamed into the same document, and hydrates without a problem", async () => {
    const { page, problems, documentRequests } = await visitorPage();
    // The order in which the parser (or React) puts the page's parts in the document.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        for (const id of ["fast", "slow-fallback", "slow-value"]) if (!seen.includes(id) && document.getElementById(id)) seen.push(id);
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${stack.server.url}/diagnostics/deferred`, { waitUntil: "commit" });
    await page.waitForSelector("#slow-value");
    expect(await page.evaluate(() => (window as unknown as { seen: string[] }).seen)).toEqual(["fast", "slow-fallback", "slow-value"]);
    expect(await page.textContent("#slow-value")).toBe("the slow value");
    await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    expect(await page.locator("#slow-fallback").count()).toBe(0);
    expect(documentRequests).toEqual(["/diagnostics/deferred"]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("navigates: shows #fast from the data request's first part, then #slow-value from the same request", async () => {
    const { page, problems, dataRequests, documentRequests } = watchPage(await stack.browser.newPage());
    await page.goto(`${stack.server.url}/diagnostics`);
    await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    await page.click('a[href="/diagnostics/deferred"]');
    await page.waitForSelector("#fast");
    expect(await page.locator("#slow-value").count()).toBe(0);
    expect(await page.locator("#slow-fallback").count()).toBe(1);
    await page.waitForSelector("#slow-value");
    expect(page.url()).toBe(`${stack.server.url}/diagnostics/deferred`);
    expect(dataRequests).toEqual(["/__data/diagnostics/deferred?_routes=diagnostics%2FDeferredPage"]);
    expect(documentRequests).toEqual(["/diagnostics"]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("navigates to ?fail=1: #slow-error from the streamed data request, the rest of the page intact", async () => {
    const { page, problems, dataRequests } = await visitorPage();
    await page.goto(`${stack.server.url}/diagnostics/deferred?ready=1`);
    await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    await page.click("#to-failing");
    await page.waitForSelector("#slow-error");
    expect(await page.textContent("#fast")).toBe("the fast value");
    expect(page.url()).toBe(`${stack.server.url}/diagnostics/deferred?fail=1`);
    expect(dataRequests).toEqual(["/__data/diagnostics/deferred?fail=1"]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("?fail=1 shows #slow-error with the rest of the page, status 200, the error reported once (by the server)", async () => {
    const { page, problems } = await visitorPage();
    const response = await page.goto(`${stack.server.url}/diagnostics/deferred?fail=1`);
    expect(response?.status()).toBe(200);
    await page.waitForSelector("#slow-error");
    await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    expect(await page.textContent("#fast")).toBe("the fast value");
    expect(await page.locator("#slow-fallback").count()).toBe(0);
    await stack.ingest.waitFor(() => eventsWithMessage(stack.ingest, "diagnostic deferred error").length > 0, 10_000);
    // A second report, from the server or the browser, would have arrived before these markers.
    await serverMarkerArrived(stack.server.url, stack.ingest);
    await browserMarkerArrived(page, stack.ingest);
    // One from the navigation just before, one from this page: each request's failure once, by the server.
    expect(eventsWithMessage(stack.ingest, "diagnostic deferred error")).toHaveLength(2);
    expect(receivedItems(stack.ingest, "event").filter((item) => fromBrowser(item) && !isMarkerEvent(item))).toEqual([]);
    expect(problems.filter((problem) => !isMarkerText(problem))).toEqual([]);
    await page.close();
  });
});
