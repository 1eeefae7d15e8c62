import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium } from "../support/browser";
import { eventsWithMessage } from "../support/envelopes";
import { type FakeIngest, startFakeIngest } from "../support/fake-ingest";
import { type ServerProcess, startServerProcess } from "../support/server-process";

describe.skipIf(!hasChromium)("browser error reporting while offline", () => {
  let ingest: FakeIngest;
  let server: ServerProcess;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    ingest = await startFakeIngest();
    server = await startServerProcess({
      SENTRY_DSN: `http://publickey@127.0.0.1:${ingest.port}/42`,
      ENABLE_DIAGNOSTIC_ROUTES: "true",
    });
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await server?.stop();
    await ingest?.close();
  });

  it("keeps an error raised offline and sends it through the tunnel once the browser is back online", async () => {
    const { browser } = chromium;
    const page = await browser.newPage();
    const sdkLoaded = page.waitForResponse(/\/assets\/chunks\/error-reporting-[A-Z0-9]+\.js$/);
    await page.goto(`${server.url}/diagnostics/client-error`);
    await page.waitForSelector("html[data-hydrated=true]");
    await sdkLoaded;

    await browser.setOffline(true);
    // The SDK's attempt to send, failed for being offline: the event is then kept for later.
    const sendFailed = page.waitForEvent("requestfailed", (request) => request.url().includes("/monitoring"));
    await page.click("#throw-client-error");
    await sendFailed;
    expect(eventsWithMessage(ingest, "diagnostic client error")).toHaveLength(0);

    await browser.setOffline(false);
    await ingest.waitFor(() => eventsWithMessage(ingest, "diagnostic client error").length > 0, 15_000);
    const [event] = eventsWithMessage(ingest, "diagnostic client error");
    // Through the tunnel: it forwarded the visitor's IP.
    expect(event?.envelope.request.headers["x-sentry-forwarded-for"]).toBe("127.0.0.1");
    await page.close();
  });
});
