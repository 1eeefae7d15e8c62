import type { BrowserContext, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium, markDocument, notReloaded, openMarked } from "../../support/browser";
import { receivedItems } from "../../support/envelopes";
import { type FakeIngest, startFakeIngest } from "../../support/fake-ingest";
import { DIST } from "../../support/paths";
import { type ServerProcess, startServerProcess } from "../../support/server-process";

// The product's feedback page and form (src/app/feedback), on the product's build: from its own page and from the
// platform's error pages, which offer it through the root layout's hook.
let ingest: FakeIngest;
let server: ServerProcess;
const browsers: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  ingest = await startFakeIngest();
  server = await startServerProcess({ SENTRY_DSN: `http://publickey@127.0.0.1:${ingest.port}/42`, ENABLE_DIAGNOSTIC_ROUTES: "true" }, { dist: DIST });
});
afterAll(async () => {
  await Promise.all(browsers.map((browser) => browser.close()));
  await server?.stop();
  await ingest?.close();
});

async function browserContext(javaScriptEnabled: boolean): Promise<BrowserContext> {
  const launched = await launchChromium({ javaScriptEnabled });
  browsers.push(launched);
  return launched.browser;
}

const feedbackFor = (eventId: string) =>
  receivedItems(ingest, "feedback").filter(
    (item) => (item.payload.contexts as { feedback?: { associated_event_id?: string } })?.feedback?.associated_event_id === eventId,
  );
const eventWithId = (eventId: string) => receivedItems(ingest, "event").filter((item) => item.payload.event_id === eventId);
const eventIdOn = (html: string) => /name="eventId" value="([0-9a-f]{32})"/.exec(html)?.[1];

it("sends feedback from the server's error page to the ingest, linked to the event shown there", async () => {
  const errorPage = await (await fetch(`${server.url}/diagnostics/server-error`)).text();
  const eventId = eventIdOn(errorPage);
  expect(eventId).toMatch(/^[0-9a-f]{32}$/);
  const response = await fetch(`${server.url}/feedback`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
    body: new URLSearchParams({ message: "It broke after I clicked", eventId: eventId as string }),
    redirect: "manual",
  });
  expect(response.status).toBe(303);
  expect(response.headers.get("location")).toBe("/feedback?sent=1");
  await ingest.waitFor(() => feedbackFor(eventId as string).length > 0 && eventWithId(eventId as string).length > 0, 10_000);
  const [item] = feedbackFor(eventId as string);
  const contexts = item?.payload.contexts as { feedback?: { message?: string } } | undefined;
  expect(contexts?.feedback?.message).toBe("It broke after I clicked");
});

describe.skipIf(!hasChromium)("the feedback form in a browser without JavaScript", () => {
  let browser: BrowserContext;
  beforeAll(async () => {
    browser = await browserContext(false);
  });

  it("completes post/redirect/get, and shows validation messages with what was typed", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/feedback`);
    await page.fill('textarea[name="message"]', "   ");
    await page.fill('input[name="email"]', "not-an-address");
    await Promise.all([page.waitForURL(`${server.url}/feedback`), page.click('button[type="submit"]')]);
    expect(await page.textContent('[data-error-for="message"]')).toContain("Please write a message");
    expect(await page.inputValue('input[name="email"]')).toBe("not-an-address");
    await page.fill('textarea[name="message"]', "Without JavaScript");
    await page.fill('input[name="email"]', "");
    await Promise.all([page.waitForURL(`${server.url}/feedback?sent=1`), page.click('button[type="submit"]')]);
    expect(await page.isVisible("#feedback-sent")).toBe(true);
    await page.close();
  });
});

describe.skipIf(!hasChromium)("the feedback form in a browser with JavaScript", () => {
  let browser: BrowserContext;
  beforeAll(async () => {
    browser = await browserContext(true);
  });

  const open = (path: string) => openMarked(browser, `${server.url}${path}`);

  it("hydrates the server's error page without warnings, fetching its feedback form only there, and sends it without a reload", async () => {
    const scripts: string[] = [];
    const onRequest = (request: Request) => {
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
    };
    browser.on("request", onRequest);
    const feedbackFormChunk = () => scripts.filter((path) => /\/FeedbackForm-\w+\.js$/.test(path));
    const home = await open("/");
    expect(feedbackFormChunk()).toEqual([]);
    await home.close();

    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("console", (message) => {
      // The document's own 500 is logged by Chromium as a failed load: that one is expected.
      if (message.location().url === `${server.url}/diagnostics/server-error`) return;
      if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(`${server.url}/diagnostics/server-error`);
    await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    // The form's boundary hydrates once its chunk is there: React then owns the element.
    await page.waitForFunction(() => {
      const form = document.querySelector('form[action="/feedback"]');
      return form !== null && Object.keys(form).some((key) => key.startsWith("__reactFiber"));
    });
    expect(feedbackFormChunk()).toHaveLength(1);
    await markDocument(page);
    await page.fill('form[action="/feedback"] textarea[name="message"]', "The server failed me");
    await page.click('form[action="/feedback"] button[type="submit"]');
    await page.waitForURL(`${server.url}/feedback?sent=1`);
    await page.waitForSelector("#feedback-sent");
    expect(await notReloaded(page)).toBe(true);
    expect(problems).toEqual([]);
    browser.off("request", onRequest);
    await page.close();
  });

  it("links an error page to /feedback with its event id when the form's chunk cannot be loaded", async () => {
    const page = await open("/diagnostics/client-error");
    await page.route(/\/FeedbackForm-\w+\.js$/, (route) => route.abort());
    await page.click("#throw-render-error");
    const link = page.locator('a[href^="/feedback"]', { hasText: "Send us feedback" });
    await expect.poll(() => link.getAttribute("href"), { timeout: 10_000 }).toMatch(/^\/feedback\?eventId=[0-9a-f]{32}$/);
    expect(await page.locator('form[action="/feedback"]').count()).toBe(0);
    await page.close();
  });

  it("sends feedback from the error boundary's page, linked to the browser's event", async () => {
    const page = await open("/diagnostics/client-error");
    await page.click("#throw-render-error");
    const input = page.locator('form[action="/feedback"] input[name="eventId"]');
    await expect.poll(() => input.inputValue(), { timeout: 10_000 }).toMatch(/^[0-9a-f]{32}$/);
    const eventId = await input.inputValue();
    await page.fill('form[action="/feedback"] textarea[name="message"]', "The page went blank");
    await page.click('form[action="/feedback"] button[type="submit"]');
    await page.waitForURL(`${server.url}/feedback?sent=1`);
    await page.waitForSelector("#feedback-sent");
    expect(await notReloaded(page)).toBe(true);
    await ingest.waitFor(() => feedbackFor(eventId).length > 0 && eventWithId(eventId).length > 0, 10_000);
    await page.close();
  });
});
