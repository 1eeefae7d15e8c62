import { describe, expect, it } from "vitest";
import { hasChromium } from "../support/browser";
import { receivedItems } from "../support/envelopes";
import { reportingStack } from "../support/reporting-stack";

// The browser's error page shows an event id (the product's offers feedback linked to it): only ever
// one the ingest received. The fixture app's error component shows it as `failed (<id>)`.
describe.skipIf(!hasChromium)("browser error pages' event ids", () => {
  const stack = reportingStack({});

  it("the same render error twice in a row: each id shown is an event the ingest received", async () => {
    await renderErrorsShowReceivedIds(stack);
  });

  it("browser events and breadcrumbs carry no query string or fragment, nor the referrer's", async () => {
    const page = await stack.browser.newPage();
    await page.goto(`${stack.server.url}/diagnostics/client-error?token=SECRET-QUERY#SECRET-FRAGMENT`, {
      referer: `${stack.server.url}/diagnostics?token=SECRET-REFERER`,
    });
    await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    // A client navigation with a query first, for a navigation breadcrumb that would carry it.
    await page.evaluate(() => history.pushState(null, "", "/diagnostics/client-error?token=SECRET-PUSHED"));
    await page.click("#throw-client-error");
    const fromThisPage = () =>
      receivedItems(stack.ingest, "event").filter((item) => JSON.stringify(item.payload).includes("diagnostic client error"));
    await stack.ingest.waitFor(() => fromThisPage().length > 0, 10_000);
    const [event] = fromThisPage();
    const request = event?.payload.request as { url?: string; headers?: Record<string, string> } | undefined;
    expect(request?.url).toBe(`${stack.server.url}/diagnostics/client-error`);
    expect(request?.headers?.Referer).toBe(`${stack.server.url}/diagnostics`);
    expect(JSON.stringify(event?.payload)).not.toMatch(/SECRET/);
    await page.close();
  });
});

// With tracing on, the tracing chunk (its own copy of the SDK) records the ids the error pages read.
describe.skipIf(!hasChromium)("browser error pages' event ids with tracing on", () => {
  const stack = reportingStack({ SENTRY_TRACES_SAMPLE_RATE: "1" });

  it("the same render error twice in a row: each id shown is an event the ingest received", async () => {
    await renderErrorsShowReceivedIds(stack);
  });
});

async function renderErrorsShowReceivedIds(stack: ReturnType<typeof reportingStack>): Promise<void> {
  const page = await stack.browser.newPage();
  await page.goto(`${stack.server.url}/diagnostics/client-error`);
  await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
  const shown: string[] = [];
  for (let round = 0; round < 2; round++) {
    await page.click("#throw-render-error");
    await page.waitForSelector("#route-error");
    // Kept: long enough for the SDK to have sent (or dropped) the event. Dedupe may drop it,
    // which nothing signals, and a marker event would change what dedupe compares against.
    await page.waitForTimeout(1_500);
    shown.push(/\(([0-9a-f]{32})\)/.exec((await page.textContent("#route-error")) ?? "")?.[1] ?? "");
    await page.click("#to-home");
    await page.waitForURL(`${stack.server.url}/`);
    await page.goBack();
    await page.waitForSelector("#throw-render-error");
  }
  const ids = shown.filter((id) => id !== "");
  expect(ids.length).toBeGreaterThan(0);
  await stack.ingest.waitFor(() => {
    const received = new Set(receivedItems(stack.ingest, "event").map((item) => item.payload.event_id));
    return ids.every((id) => received.has(id));
  }, 10_000);
  await page.close();
}
