import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium, watchPage } from "../support/browser";
import { eventsWithMessage, receivedItems } from "../support/envelopes";
import { type FakeIngest, startFakeIngest } from "../support/fake-ingest";
import { browserMarkerArrived, FIXTURE_MARKER, isMarkerEvent, isMarkerText, serverMarkerArrived } from "../support/report-markers";
import { type ServerProcess, startServerProcess } from "../support/server-process";

// The fixture app's /later: a deferred value that fails, read with React's use() (no <Await>).
describe.skipIf(!hasChromium)("a failing deferred value read with use()", () => {
  let ingest: FakeIngest;
  let server: ServerProcess;
  let browser: BrowserContext;
  let closeBrowser: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ingest = await startFakeIngest();
    server = await startServerProcess({ SENTRY_DSN: `http://publickey@127.0.0.1:${ingest.port}/42` });
    ({ browser, close: closeBrowser } = await launchChromium());
  });
  afterAll(async () => {
    await closeBrowser?.();
    await server?.stop();
    await ingest?.close();
  });

  it("shows the route's error component, and is reported once, by the server only", async () => {
    const page = await browser.newPage();
    // A visitor's User-Agent: headless Chromium's own is a crawler's.
    await page.setExtraHTTPHeaders({ "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36" });
    const { problems } = watchPage(page);
    const response = await page.goto(`${server.url}/later`);
    expect(response?.status()).toBe(200);
    await page.waitForSelector("#route-error");
    await ingest.waitFor(() => eventsWithMessage(ingest, "fixture deferred failure").length > 0, 10_000);
    // A second report, from the server or the browser, would have arrived before these markers.
    await serverMarkerArrived(server.url, ingest, FIXTURE_MARKER);
    await browserMarkerArrived(page, ingest);
    expect(eventsWithMessage(ingest, "fixture deferred failure")).toHaveLength(1);
    const fromBrowser = receivedItems(ingest, "event").filter(
      (item) => item.envelope.request.headers["x-sentry-forwarded-for"] !== undefined && !isMarkerEvent(item),
    );
    expect(fromBrowser).toEqual([]);
    expect(problems.filter((problem) => !isMarkerText(problem))).toEqual([]);
    await page.close();
  });
});
