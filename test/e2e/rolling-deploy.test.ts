import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium, watchPage } from "../support/browser";
import { eventsWithMessage } from "../support/envelopes";
import { type FakeIngest, startFakeIngest } from "../support/fake-ingest";
import { redisAvailable, startRedis, type TestRedis } from "../support/redis-server";
import { BUILD_B_HOME_TEXT, type RollingDeploy, startRollingDeploy } from "../support/rolling-deploy";

// A visitor during a rolling update: every request goes to the other build than the last one,
// and with Redis each build serves the other's assets, so nothing a page needs is missing.
describe.runIf(hasChromium && redisAvailable)("Chromium through a round-robin balancer in front of two builds sharing Redis", () => {
  let redis: TestRedis;
  let ingest: FakeIngest;
  let deploy: RollingDeploy;
  let browser: BrowserContext;
  let closeBrowser: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    [redis, ingest] = await Promise.all([startRedis(), startFakeIngest()]);
    deploy = await startRollingDeploy({
      redisUrl: redis.url,
      env: {
        SENTRY_DSN: `http://publickey@127.0.0.1:${ingest.port}/42`,
        ENABLE_DIAGNOSTIC_ROUTES: "true",
        // A healthy Redis on two busy CI cores: at the 100 ms default one late answer marks it down
        // for a probe interval, and a foreign asset is then a 404 by design (tested in
        // test/server/assets). Here the subject is sharing, not a slow Redis.
        REDIS_TIMEOUT_MS: "2000",
      },
    });
    const published = (lines: Array<Record<string, unknown>>) => lines.some((line) => String(line.msg).startsWith("shared assets: in Redis"));
    await Promise.all([deploy.a.waitForLogs(published, 10_000), deploy.b.waitForLogs(published, 10_000)]);
    ({ browser, close: closeBrowser } = await launchChromium());
  });
  afterAll(async () => {
    await closeBrowser?.();
    await deploy?.close();
    await Promise.all([ingest?.close(), redis?.stop()]);
  });

  /** What each build said about Redis and its assets: why a shared asset was missing, when one was. */
  const redisLines = () =>
    [...deploy.a.output.map((line) => `a: ${line}`), ...deploy.b.output.map((line) => `b: ${line}`)]
      .filter((line) => /"msg":"(redis|shared assets):/.test(line))
      .join("\n");

  /** Which build answered a document: B's home page says so. */
  const buildOf = (html: string | null) => (html?.includes(BUILD_B_HOME_TEXT) ? "b" : "a");

  /**
   * How many requests a visit sends through the balancer (assets cached or not, the session it
   * reports) decides which build the next document reaches; requests from here until one is
   * answered by `build` send the next one to the other build.
   */
  async function nextRequestToTheOther(build: string): Promise<void> {
    for (let attempt = 0; attempt < 2; attempt++) {
      if (buildOf(await (await fetch(`${deploy.balancer.url}/`)).text()) === build) return;
    }
  }

  it("hydrates pages of both builds, each with one document load", async () => {
    const seen = new Set<string>();
    for (let visit = 0; visit < 8 && seen.size < 2; visit++) {
      if (seen.size === 1) await nextRequestToTheOther([...seen][0] as string);
      const watched = watchPage(await browser.newPage());
      await watched.page.goto(`${deploy.balancer.url}/`);
      await watched.page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
      seen.add(buildOf(await watched.page.textContent("#home")));
      expect(watched.documentRequests).toEqual(["/"]);
      expect(watched.problems, redisLines()).toEqual([]);
      await watched.page.close();
    }
    expect([...seen].sort()).toEqual(["a", "b"]);
  });

  it("delivers a client error to the ingest", async () => {
    const page = await browser.newPage();
    await page.goto(`${deploy.balancer.url}/diagnostics/client-error`);
    await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    await page.click("#throw-client-error");
    await ingest.waitFor(() => eventsWithMessage(ingest, "diagnostic client error").length > 0, 10_000);
    await page.close();
  });

  it("lands a client navigation on its target page", async () => {
    const page = await browser.newPage();
    await page.goto(`${deploy.balancer.url}/`);
    await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    await page.click("#to-item");
    await page.waitForSelector("#item", { timeout: 10_000 });
    expect(new URL(page.url()).pathname).toBe("/items/1");
    expect(await page.textContent("#item")).toMatch(/^Item 1 /);
    await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    await page.close();
  });
});
