import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drain } from "#src/server/lifecycle/graceful-shutdown";
import { hasChromium, launchChromium, notReloaded, openMarked, watchPage } from "../support/browser";
import { until } from "../support/raw-http";
import { redisUp } from "../support/redis-app";
import { redisAvailable, startRedis, type TestRedis } from "../support/redis-server";
import { startTestApp, type TestApp } from "../support/test-app";

/** A front proxy whose upstream the test switches, as a balancer takes a draining replica out. */
async function switchableProxy(upstream: string): Promise<{ url: string; target: { upstream: string }; close(): Promise<void> }> {
  const target = { upstream };
  const server: Server = createServer((req, res) => {
    const forward = request(new URL(req.url ?? "/", target.upstream), { method: req.method, headers: req.headers, agent: false }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
      answer.on("error", () => res.destroy());
    });
    forward.on("error", () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    res.on("close", () => {
      if (!res.writableFinished) forward.destroy();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    target,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// The log is empty (zero height) until an event arrives: waited for in the DOM, not on screen.
const ATTACHED = { state: "attached" } as const;

const logItems = (page: Page) => page.$$eval("#events-log li", (items) => items.map((item) => item.textContent));

async function publishOn(app: TestApp, message: string): Promise<void> {
  const response = await fetch(`${app.url}/diagnostics/events`, { method: "POST", body: new URLSearchParams({ message }), redirect: "manual" });
  await response.body?.cancel();
  expect(response.status).toBe(303);
}

// Three replicas on one real Redis; the page reaches them through a proxy, as behind a balancer.
describe.skipIf(!hasChromium || !redisAvailable)("live updates in a browser (useEventStream)", () => {
  let redis: TestRedis;
  let replicas: TestApp[];
  let proxy: Awaited<ReturnType<typeof switchableProxy>>;
  let browser: BrowserContext;
  let closeBrowser: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    redis = await startRedis();
    replicas = await Promise.all([0, 1, 2].map(() => startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", REDIS_URL: redis.url })));
    await Promise.all(replicas.map(redisUp));
    proxy = await switchableProxy((replicas[0] as TestApp).url);
    ({ browser, close: closeBrowser } = await launchChromium());
  });
  afterAll(async () => {
    await closeBrowser?.();
    await proxy?.close();
    await Promise.all((replicas ?? []).map((app) => app.close()));
    await redis?.stop();
  });

  it("#events-log gains an event published on another replica, and resumes after its replica shuts down, once and in order", async () => {
    const [first, second, third] = replicas as [TestApp, TestApp, TestApp];
    const page = await openMarked(browser, `${proxy.url}/diagnostics/events`);
    const watched = watchPage(page);

    await page.waitForSelector("#events-log[data-status=open]", ATTACHED);

    // The fan-out subscriptions are made in the background at start: published until one arrives.
    await until(async () => {
      await publishOn(second, "warm-up");
      return (await logItems(page)).length > 0;
    }, 10_000);

    await publishOn(second, "from another replica");
    await page.waitForSelector("#events-log li:text-is('from another replica')");

    // A deploy takes the page's replica away: the balancer moves on, the replica drains, the stream ends with a retry hint.
    proxy.target.upstream = third.url;
    const drained = drain({
      server: first.server,
      readiness: first.deps.readiness,
      logger: first.deps.logger,
      deadlineMs: 5_000,
      onDraining: () => void first.deps.services.events.closeStreams(),
    });
    await page.waitForSelector("#events-log[data-status=reconnecting]", ATTACHED);
    await publishOn(second, "while reconnecting");
    await page.waitForSelector("#events-log li:text-is('while reconnecting')", { timeout: 10_000 });
    await page.waitForSelector("#events-log[data-status=open]", ATTACHED);
    await publishOn(third, "after");
    await page.waitForSelector("#events-log li:text-is('after')");
    const items = (await logItems(page)).filter((text) => text !== "warm-up");
    expect(items).toEqual(["from another replica", "while reconnecting", "after"]);
    expect(await drained).toEqual({ timedOut: false });
    expect(await notReloaded(page)).toBe(true);
    // Ended cleanly and came back: no failed request, nothing in the console.
    expect(watched.problems).toEqual([]);
    await page.close();
  });

  it("posting the page's form publishes to every replica's pages", async () => {
    const [, second, third] = replicas as [TestApp, TestApp, TestApp];
    proxy.target.upstream = second.url;
    const page = await openMarked(browser, `${proxy.url}/diagnostics/events`);
    await page.waitForSelector("#events-log[data-status=open]", ATTACHED);
    const elsewhere = await openMarked(browser, `${third.url}/diagnostics/events`);
    await elsewhere.waitForSelector("#events-log[data-status=open]", ATTACHED);
    await page.fill("form#events-form input[name=message]", "typed in the form");
    await page.click("form#events-form button[type=submit]");
    for (const shown of [page, elsewhere]) await shown.waitForSelector("#events-log li:text-is('typed in the form')", { timeout: 10_000 });
    expect(await notReloaded(page)).toBe(true);
    await Promise.all([page.close(), elsewhere.close()]);
  });
});
