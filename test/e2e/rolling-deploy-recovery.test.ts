import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium, watchPage } from "../support/browser";
import { eventsWithMessage } from "../support/envelopes";
import { type FakeIngest, startFakeIngest } from "../support/fake-ingest";
import { type RollingDeploy, startRollingDeploy } from "../support/rolling-deploy";

// Builds A and B behind a balancer alternating per request, without Redis: each replica has only
// its own build's assets, so about half of a page's scripts come back 404 at first.
describe.skipIf(!hasChromium)("a rolling deploy without Redis, through a round-robin balancer", () => {
  let deploy: RollingDeploy;
  let ingest: FakeIngest;
  let browser: BrowserContext;
  let closeBrowser: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ingest = await startFakeIngest();
    deploy = await startRollingDeploy({ env: { SENTRY_DSN: `http://publickey@127.0.0.1:${ingest.port}/42` } });
    ({ browser, close: closeBrowser } = await launchChromium());
  }, 120_000);
  afterAll(async () => {
    await closeBrowser?.();
    await deploy?.close();
    await ingest?.close();
  });

  /** A page whose requests all reach the balancer: routing turns Chromium's HTTP cache off, so no visit reuses another's assets. */
  async function freshPage() {
    const watched = watchPage(await browser.newPage());
    await watched.page.route("**/*", (route) => route.continue());
    return watched;
  }
  const hydrated = (page: Page) => page.waitForSelector("html[data-hydrated=true]", { timeout: 15_000 });

  // Several visits, since which replica answers each request shifts with every one the page makes.
  it.each([1, 2, 3, 4])("visit %i: the page hydrates after one document reload at most, and no loop follows", async () => {
    const { page, documentRequests } = await freshPage();
    const started = performance.now();
    await page.goto(`${deploy.balancer.url}/`);
    await hydrated(page);
    console.log(`rolling deploy without Redis: hydrated after ${Math.round(performance.now() - started)} ms, ${documentRequests.length} document load(s)`);
    await page.waitForTimeout(2_000);
    expect(documentRequests.length).toBeLessThanOrEqual(2);
    await page.click("#count");
    expect(await page.textContent("#count")).toBe("1");
    await page.close();
  });

  it("a client navigation lands on its target", async () => {
    const { page } = await freshPage();
    await page.goto(`${deploy.balancer.url}/`);
    await hydrated(page);
    await page.click("#to-item", { noWaitAfter: true });
    await page.waitForURL(`${deploy.balancer.url}/items/1`);
    await page.waitForSelector("#item");
    expect(await page.textContent("#item")).toMatch(/^Item 1/);
    await page.close();
  });

  it("a client error still reaches the ingest", async () => {
    const { page } = await freshPage();
    await page.goto(`${deploy.balancer.url}/`);
    await hydrated(page);
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error("client error during a rolling deploy");
      });
    });
    await ingest.waitFor(() => eventsWithMessage(ingest, "client error during a rolling deploy").length > 0, 20_000);
    expect(eventsWithMessage(ingest, "client error during a rolling deploy")).toHaveLength(1);
    await page.close();
  });
});
