import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium } from "../support/browser";
import { eventsWithMessage, receivedItems } from "../support/envelopes";
import { browserMarkerArrived, isMarkerEvent, serverMarkerArrived } from "../support/report-markers";
import { reportingStack } from "../support/reporting-stack";

const fromBrowser = (item: { envelope: { request: { headers: Record<string, unknown> } } }) =>
  item.envelope.request.headers["x-sentry-forwarded-for"] !== undefined;

// Error reporting across client navigations, on the diagnostics pages (in the fixture app), the way
// an operator walks them after a deploy.
describe.skipIf(!hasChromium)("error reporting during client navigation", () => {
  const stack = reportingStack({ SENTRY_TRACES_SAMPLE_RATE: "1" });

  async function diagnostics(): Promise<{ page: Page; problems: string[] }> {
    const page = await stack.browser.newPage();
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
    });
    await page.goto(`${stack.server.url}/diagnostics`);
    await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    await page.evaluate(() => {
      (window as unknown as { marker: number }).marker = 1;
    });
    return { page, problems };
  }

  const navigations = () =>
    receivedItems(stack.ingest, "transaction").filter(
      (item) => fromBrowser(item) && (item.payload.contexts as { trace: { op: string } }).trace.op === "navigation",
    );

  it("links exactly the diagnostics paths, with <Link>", async () => {
    const { page } = await diagnostics();
    const hrefs = await page.$$eval("main a", (links) => links.map((link) => link.getAttribute("href")));
    expect(hrefs).toEqual([
      "/diagnostics/server-error",
      "/diagnostics/render-error",
      "/diagnostics/client-error",
      "/diagnostics/redirect",
      "/diagnostics/missing-page",
      "/diagnostics/session",
      "/diagnostics/forbidden",
      "/diagnostics/guarded/inner",
      "/diagnostics/api/echo?hello=world",
      "/diagnostics/cached",
      "/diagnostics/prerendered",
      "/diagnostics/fetchers",
      "/diagnostics/revalidation/first",
      "/diagnostics/deferred",
      "/diagnostics/limited",
      "/diagnostics/search?page=2&sort=desc",
      "/diagnostics/parent/child",
      "/diagnostics/events",
      "/",
    ]);
    expect(await page.getAttribute("#to-home", "href")).toBe("/");
    await page.close();
  });

  it("names navigations by route pattern, and drops those that end on the not-found page", async () => {
    const { page, problems } = await diagnostics();
    await page.click('main a[href="/diagnostics/missing-page"]');
    await page.waitForSelector("#not-found");
    // Kept: a navigation ends on the SDK's idle timeout (1 s), which is what this waits out.
    await page.waitForTimeout(1_500);
    await page.goBack();
    await page.waitForSelector("#diagnostics-title");
    await page.click('main a[href="/"]');
    await page.waitForSelector("#home");
    // The positive control: the navigation to / arrives, so the not-found one would have too.
    await stack.ingest.waitFor(() => navigations().some((item) => item.payload.transaction === "/"), 15_000);
    await page.close();
    const names = navigations().map((item) => item.payload.transaction);
    expect(names).not.toContain("not_found");
    expect(names.filter((name) => String(name).startsWith("/diagnostics/missing"))).toEqual([]);
    expect(problems).toEqual([]);
    // The data request's server transaction is named like the page's.
    const dataTransactions = receivedItems(stack.ingest, "transaction").filter(
      (item) => !fromBrowser(item) && String((item.payload.request as { url?: string } | undefined)?.url).includes("/__data"),
    );
    expect(dataTransactions.map((item) => item.payload.transaction)).toContain("GET /");
    expect(dataTransactions.map((item) => item.payload.transaction)).not.toContain("GET not_found");
  });

  it("reports a loader error met during navigation once, from the server, and shows the error page", async () => {
    const { page, problems } = await diagnostics();
    await page.click('main a[href="/diagnostics/server-error"]');
    await page.waitForSelector("#route-error");
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    await stack.ingest.waitFor(() => eventsWithMessage(stack.ingest, "diagnostic server error").length > 0, 10_000);
    await serverMarkerArrived(stack.server.url, stack.ingest);
    await browserMarkerArrived(page, stack.ingest);
    const events = eventsWithMessage(stack.ingest, "diagnostic server error");
    expect(events).toHaveLength(1);
    expect(fromBrowser(events[0] as never)).toBe(false);
    expect(events[0]?.payload.transaction).toBe("GET /diagnostics/server-error");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("gives browser events after a navigation the new route pattern", async () => {
    const { page } = await diagnostics();
    await page.click('main a[href="/diagnostics/client-error"]');
    await page.waitForSelector("#throw-client-error");
    await page.click("#throw-client-error");
    await stack.ingest.waitFor(() => eventsWithMessage(stack.ingest, "diagnostic client error").length > 0, 10_000);
    const [event] = eventsWithMessage(stack.ingest, "diagnostic client error");
    expect(event?.payload.transaction).toBe("/diagnostics/client-error");
    await page.close();
  });

  it("follows the redirect signal to the home page without reporting it", async () => {
    const { page } = await diagnostics();
    await page.click('main a[href="/diagnostics/redirect"]');
    await page.waitForSelector("#home");
    expect(page.url()).toBe(`${stack.server.url}/`);
    await serverMarkerArrived(stack.server.url, stack.ingest);
    await browserMarkerArrived(page, stack.ingest);
    const redirectEvents = receivedItems(stack.ingest, "event").filter(
      (item) => !isMarkerEvent(item) && JSON.stringify(item.payload).includes("RedirectSignal"),
    );
    expect(redirectEvents).toEqual([]);
    await page.close();
  });
});
