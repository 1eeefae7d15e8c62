import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium } from "../support/browser";
import { eventsWithMessage, exceptionOf, receivedItems } from "../support/envelopes";
import { reportingStack } from "../support/reporting-stack";

interface Session {
  sid: string;
  init: boolean;
  status: string;
  errors: number;
  attrs: { release?: string; environment?: string };
}

const SDK_CHUNK = /\/assets\/chunks\/sentry-client-[A-Z0-9]+\.js$/;
const REPORTING_CHUNK = /\/assets\/chunks\/error-reporting-[A-Z0-9]+\.js$/;

// Tracing off (the default): what a page fetches for error reporting, and the release-health
// session it sends, with and without an error.
describe.skipIf(!hasChromium)("browser error reporting fetched on demand", () => {
  const stack = reportingStack({});

  const sessions = () => receivedItems(stack.ingest, "session").map((item) => item.payload as unknown as Session);
  const sessionsOf = (sid: string) => sessions().filter((session) => session.sid === sid);

  async function open(path: string): Promise<{ page: Page; requested: string[] }> {
    const page = await stack.browser.newPage();
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    const reportingLoaded = page.waitForResponse(REPORTING_CHUNK);
    await page.goto(`${stack.server.url}${path}`);
    await page.waitForSelector("html[data-hydrated=true]");
    await reportingLoaded;
    return { page, requested };
  }

  it("sends a page's session without fetching the SDK while the page raises no error", async () => {
    const before = sessions().length;
    const { page, requested } = await open("/");
    await stack.ingest.waitFor(() => sessions().length > before, 10_000);
    const [session] = sessions().slice(before);
    expect(session).toMatchObject({ init: true, status: "ok", errors: 0, attrs: { environment: "production" } });
    expect(session?.sid).toMatch(/^[0-9a-f]{32}$/);
    expect(session?.attrs.release).toMatch(/^[0-9a-f]{12}$/);
    // Kept: the SDK would have been fetched at once after the reporting chunk, as it was before.
    await page.waitForTimeout(500);
    expect(requested.filter((url) => SDK_CHUNK.test(url))).toEqual([]);
    await page.close();
  });

  it("fetches the SDK at the first error: the event keeps its stack, route and earlier clicks, and the session turns unhandled", async () => {
    const before = sessions().length;
    const { page, requested } = await open("/diagnostics");
    await stack.ingest.waitFor(() => sessions().length > before, 10_000);
    const [started] = sessions().slice(before);
    // A client navigation first: the error is raised on the route navigated to.
    await page.click('main a[href="/diagnostics/client-error"]');
    await page.waitForSelector("#throw-client-error");
    expect(requested.filter((url) => SDK_CHUNK.test(url))).toEqual([]);
    await page.click("#throw-client-error");
    await stack.ingest.waitFor(() => eventsWithMessage(stack.ingest, "diagnostic client error").length > 0, 10_000);
    expect(requested.filter((url) => SDK_CHUNK.test(url))).toHaveLength(1);
    const [event] = eventsWithMessage(stack.ingest, "diagnostic client error");
    expect(event?.payload.transaction).toBe("/diagnostics/client-error");
    const frames = exceptionOf(event?.payload ?? {}).stacktrace?.frames ?? [];
    expect(frames.some((frame) => String(frame.filename).includes("/assets/"))).toBe(true);
    // What led to it, from before the SDK ran: the navigation and the click.
    const breadcrumbs = (event?.payload.breadcrumbs ?? []) as Array<{ category?: string; message?: string; data?: Record<string, unknown> }>;
    expect(breadcrumbs).toContainEqual(expect.objectContaining({ category: "navigation", data: { from: "/diagnostics", to: "/diagnostics/client-error" } }));
    expect(breadcrumbs).toContainEqual(expect.objectContaining({ category: "ui.click", message: expect.stringMatching(/button#throw-client-error$/) }));
    const sid = String(started?.sid);
    await stack.ingest.waitFor(() => sessionsOf(sid).length > 1, 10_000);
    expect(sessionsOf(sid).map(({ init, status, errors }) => ({ init, status, errors }))).toEqual([
      { init: true, status: "ok", errors: 0 },
      { init: false, status: "unhandled", errors: 1 },
    ]);
    await page.close();
  });

  it("fetches the SDK as the page starts when an earlier visit kept envelopes offline, and sends them", async () => {
    const { page } = await open("/diagnostics/client-error");
    // The SDK runs (fetched at this first error), then an error raised offline is kept in IndexedDB.
    await page.evaluate(() => setTimeout(() => Promise.reject(new Error("online client error"))));
    await stack.ingest.waitFor(() => eventsWithMessage(stack.ingest, "online client error").length > 0, 10_000);
    await stack.browser.setOffline(true);
    const sendFailed = page.waitForEvent("requestfailed", (request) => request.url().includes("/monitoring"));
    await page.click("#throw-client-error");
    await sendFailed;
    // The SDK writes what it could not send to its IndexedDB queue after the failure: wait for it.
    // Opened only once the SDK has made it: opening it first would make an empty database the SDK
    // never upgrades, and a poll whose store is missing must answer false, not throw and hang.
    await page.waitForFunction(async () => {
      if (!(await indexedDB.databases()).some((db) => db.name === "sentry-offline")) return false;
      return new Promise<boolean>((resolve) => {
        const request = indexedDB.open("sentry-offline");
        request.onerror = () => resolve(false);
        request.onsuccess = () => {
          const db = request.result;
          if (!db.objectStoreNames.contains("queue")) {
            db.close();
            resolve(false);
            return;
          }
          const count = db.transaction("queue").objectStore("queue").count();
          count.onsuccess = () => {
            db.close();
            resolve(count.result > 0);
          };
          count.onerror = () => {
            db.close();
            resolve(false);
          };
        };
      });
    });
    await page.close();
    await stack.browser.setOffline(false);
    const sent = eventsWithMessage(stack.ingest, "diagnostic client error").length;

    // The next page raises no error: it fetches the SDK only to send what was kept.
    const next = await stack.browser.newPage();
    const sdkLoaded = next.waitForResponse(SDK_CHUNK);
    await next.goto(`${stack.server.url}/`);
    await sdkLoaded;
    await stack.ingest.waitFor(() => eventsWithMessage(stack.ingest, "diagnostic client error").length > sent, 10_000);
    await next.close();
    // Longer than the default: the SDK sends what was kept 5 s after it starts (its offline transport).
  }, 30_000);

  it("keeps errors the SDK could not be fetched for when the page is left, and sends them with their stacks from the next page", async () => {
    const { page } = await open("/diagnostics/client-error");
    await page.route(SDK_CHUNK, (route) => route.abort());
    const sdkFailed = page.waitForEvent("requestfailed", (request) => SDK_CHUNK.test(request.url()));
    await page.evaluate(() => setTimeout(() => { throw new Error("error raised before leaving"); }));
    await sdkFailed;
    // Left while the SDK is still out of reach.
    await page.goto("about:blank");
    await page.unroute(SDK_CHUNK);
    expect(eventsWithMessage(stack.ingest, "error raised before leaving")).toHaveLength(0);

    await page.goto(`${stack.server.url}/`);
    await stack.ingest.waitFor(() => eventsWithMessage(stack.ingest, "error raised before leaving").length > 0, 10_000);
    const [event] = eventsWithMessage(stack.ingest, "error raised before leaving");
    expect(event?.payload.transaction).toBe("/diagnostics/client-error");
    expect(exceptionOf(event?.payload ?? {}).stacktrace?.frames?.length).toBeGreaterThan(0);
    await page.close();
  });
});

describe.skipIf(!hasChromium)("the page's session with tracing on", () => {
  const stack = reportingStack({ SENTRY_TRACES_SAMPLE_RATE: "1" });

  it("is sent by the tracing chunk, fetched once the page is idle, and turns unhandled at an error the SDK reports", async () => {
    const page = await stack.browser.newPage();
    const tracingLoaded = page.waitForResponse(/\/assets\/chunks\/tracing-[A-Z0-9]+\.js$/);
    await page.goto(`${stack.server.url}/`);
    await tracingLoaded;
    await stack.ingest.waitFor(() => receivedItems(stack.ingest, "session").length > 0, 10_000);
    const sessions = () => receivedItems(stack.ingest, "session").map((item) => item.payload as unknown as Session);
    const [session] = sessions();
    expect(session).toMatchObject({ init: true, status: "ok", errors: 0, attrs: { environment: "production" } });
    // A window error the SDK's own handlers report: the session learns of it all the same.
    await page.evaluate(() => setTimeout(() => Promise.reject(new Error("error with tracing on"))));
    await stack.ingest.waitFor(() => sessions().some((update) => update.sid === session?.sid && update.status === "unhandled"), 10_000);
    await stack.ingest.waitFor(() => eventsWithMessage(stack.ingest, "error with tracing on").length > 0, 10_000);
    await page.close();
  });
});
