import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium } from "../support/browser";
import { eventsWithMessage, exceptionOf, receivedItems, transactionsNamed } from "../support/envelopes";
import { browserMarkerArrived } from "../support/report-markers";
import { reportingStack } from "../support/reporting-stack";

describe.skipIf(!hasChromium)("browser error reporting through the tunnel", () => {
  const stack = reportingStack({ SENTRY_TRACES_SAMPLE_RATE: "1" });

  async function open(path: string): Promise<Page> {
    const page = await stack.browser.newPage();
    await page.goto(`${stack.server.url}${path}`);
    await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    return page;
  }

  const fromBrowser = (item: { envelope: { request: { headers: Record<string, unknown> } } }) =>
    item.envelope.request.headers["x-sentry-forwarded-for"] !== undefined;

  it("sends one error event with message and stack through /monitoring?p=42", async () => {
    const page = await open("/diagnostics/client-error");
    await page.click("#throw-client-error");
    await stack.ingest.waitFor(() => eventsWithMessage(stack.ingest, "diagnostic client error").length > 0, 10_000);
    await browserMarkerArrived(page, stack.ingest);
    const events = eventsWithMessage(stack.ingest, "diagnostic client error");
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(fromBrowser(event as never)).toBe(true);
    expect(event?.envelope.request.url).toBe("/api/42/envelope/");
    expect(event?.payload.transaction).toBe("/diagnostics/client-error");
    // The same environment and release as the server's events: both come from the server.
    expect(event?.payload.environment).toBe("production");
    expect(event?.payload.release).toMatch(/^[0-9a-f]{12}$/);
    const frames = exceptionOf(event?.payload ?? {}).stacktrace?.frames ?? [];
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.some((frame) => String(frame.filename).includes("/assets/"))).toBe(true);
    // The tunnel forwarded only its chosen headers: no trace propagation, no cookies.
    const forwardedHeaders = Object.keys(event?.envelope.request.headers ?? {});
    for (const name of ["sentry-trace", "baggage", "cookie", "traceparent"]) expect(forwardedHeaders).not.toContain(name);
    const tunnelCalls = stack.requestedUrls.filter((url) => url.includes("/monitoring"));
    expect(tunnelCalls.length).toBeGreaterThan(0);
    for (const url of tunnelCalls) expect(url).toBe(`${stack.server.url}/monitoring?p=42`);
    await page.close();
  });

  it("sends an error raised before the Sentry chunk loaded, once it has", async () => {
    const page = await stack.browser.newPage();
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Hold back the Sentry chunk so the error happens while only the queue listens: with
    // tracing on (as here) that is the tracing chunk, which includes error reporting.
    await page.route(/\/assets\/chunks\/(?:error-reporting|tracing)-[A-Z0-9]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${stack.server.url}/`);
    await page.waitForSelector("html[data-hydrated=true]");
    const thrown = page.waitForEvent("pageerror");
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error("early client error");
      });
    });
    // Thrown, with the chunk held back: nothing can have sent it yet.
    await thrown;
    expect(eventsWithMessage(stack.ingest, "early client error")).toHaveLength(0);
    release();
    await stack.ingest.waitFor(() => eventsWithMessage(stack.ingest, "early client error").length > 0, 10_000);
    await browserMarkerArrived(page, stack.ingest);
    expect(eventsWithMessage(stack.ingest, "early client error")).toHaveLength(1);
    await page.close();
  });

  it("contacts no host but the page's own", () => {
    expect(stack.requestedUrls.length).toBeGreaterThan(0);
    for (const url of stack.requestedUrls) expect(new URL(url).origin).toBe(stack.server.url);
  });

  it("drops the not-found pageload, keeps the home pageload, which continues the server trace", async () => {
    // Both pages get the same time to finish their pageload (idle timeout) before closing,
    // so the home page's arrival shows the not-found one would have arrived too.
    const missing = await open("/no/such/page");
    // Kept: a pageload ends on the SDK's idle timeout (1 s), which is what this waits out.
    await missing.waitForTimeout(1_500);
    await missing.close();
    const home = await open("/");
    const serverTrace = await home.getAttribute('meta[name="sentry-trace"]', "content");
    const serverTraceId = serverTrace?.split("-")[0];
    expect(serverTraceId).toMatch(/^[0-9a-f]{32}$/);
    // The positive control: the home pageload, ended on the same idle timeout later, arrives.
    await stack.ingest.waitFor(
      () =>
        receivedItems(stack.ingest, "transaction").some(
          (item) => fromBrowser(item) && JSON.stringify(item.payload.contexts).includes(String(serverTraceId)),
        ),
      15_000,
    );
    await home.close();
    const pageloads = receivedItems(stack.ingest, "transaction").filter(fromBrowser);
    expect(pageloads.map((item) => item.payload.transaction)).not.toContain("not_found");
    const traceOf = (item: (typeof pageloads)[number]) =>
      (item.payload.contexts as { trace: { trace_id: string; op: string } }).trace;
    const homeLoad = pageloads.find((item) => item.payload.transaction === "/" && traceOf(item).trace_id === serverTraceId);
    expect(homeLoad, "a pageload of / in the server's trace").toBeDefined();
    expect(traceOf(homeLoad as (typeof pageloads)[number]).op).toBe("pageload");
    // The server side of the same trace arrived too, and no server not-found transaction did.
    expect(transactionsNamed(stack.ingest, "GET /").length).toBeGreaterThan(0);
    expect(transactionsNamed(stack.ingest, "GET not_found")).toHaveLength(0);
    // The tunnel relayed every envelope above, yet none of its requests was traced.
    const names = receivedItems(stack.ingest, "transaction").map((item) => String(item.payload.transaction));
    expect(names.filter((name) => name.startsWith("POST") || name.includes("monitoring"))).toEqual([]);
  });
});

describe.skipIf(!hasChromium)("browser error reporting with tracing off", () => {
  const stack = reportingStack({});

  it("loads only the error-reporting chunk, sends a queued error once, and no transaction", async () => {
    const page = await stack.browser.newPage();
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/chunks\/error-reporting-[A-Z0-9]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${stack.server.url}/diagnostics/client-error`);
    await page.waitForSelector("html[data-hydrated=true]");
    const thrown = page.waitForEvent("pageerror");
    await page.click("#throw-client-error");
    // Thrown, with the chunk held back: nothing can have sent it yet.
    await thrown;
    expect(eventsWithMessage(stack.ingest, "diagnostic client error")).toHaveLength(0);
    release();
    await stack.ingest.waitFor(() => eventsWithMessage(stack.ingest, "diagnostic client error").length > 0, 10_000);
    await browserMarkerArrived(page, stack.ingest);
    const events = eventsWithMessage(stack.ingest, "diagnostic client error");
    expect(events).toHaveLength(1);
    expect(events[0]?.payload.transaction).toBe("/diagnostics/client-error");
    expect(exceptionOf(events[0]?.payload ?? {}).stacktrace?.frames?.length).toBeGreaterThan(0);
    await page.close();
    const chunks = stack.requestedUrls.filter((url) => url.includes("/assets/chunks/"));
    expect(chunks.some((url) => /\/error-reporting-[A-Z0-9]+\.js$/.test(url))).toBe(true);
    expect(chunks.filter((url) => url.includes("/tracing-"))).toEqual([]);
    for (const url of stack.requestedUrls) expect(new URL(url).origin).toBe(stack.server.url);
    expect(receivedItems(stack.ingest, "transaction")).toEqual([]);
  });
});
