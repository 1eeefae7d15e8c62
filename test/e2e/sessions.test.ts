import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium, type WatchedPage, watchPage } from "../support/browser";
import { until } from "../support/raw-http";
import { sessionStores } from "../support/redis-app";
import { type ServerProcess, startServerProcess } from "../support/server-process";

const { stores, stop } = sessionStores();
afterAll(stop);

// The production build in a real process, driven by Chromium: the session, the guarded layout's
// middleware and a resource route, reached by client navigation from the /diagnostics index.
describe.skipIf(!hasChromium).each(stores)("sessions, middleware and resource routes in the browser ($store store)", ({ env }) => {
  let server: ServerProcess;
  let browser: BrowserContext;
  let closeBrowser: () => Promise<void>;

  beforeAll(async () => {
    server = await startServerProcess({ ENABLE_DIAGNOSTIC_ROUTES: "true", SESSION_SECRET: "a-browser-test-secret-long-enough-000000", ...(await env()) });
    // Sessions answer once the server's store does (at once for the cookie, when connected for Redis).
    await until(async () => (await fetch(`${server.url}/diagnostics/session`)).status === 200, 5_000);
    ({ browser, close: closeBrowser } = await launchChromium());
  });
  afterAll(async () => {
    await closeBrowser?.();
    await server?.stop();
  });

  async function open(pathname: string): Promise<WatchedPage> {
    await browser.clearCookies();
    const opened = watchPage(await browser.newPage());
    const { page } = opened;
    await page.goto(`${server.url}${pathname}`);
    await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    return opened;
  }

  const text = (page: Page, selector: string) => page.textContent(selector);

  it("keeps the session through client navigations and a <Form> post/redirect/get", async () => {
    const { page, problems, dataRequests, documentRequests } = await open("/diagnostics");
    await page.click('a[href="/diagnostics/session"]');
    await page.waitForSelector("#visits");
    expect(await text(page, "#visits")).toBe("1");
    expect(await text(page, "#session-name")).toBe("");
    // The data request's Set-Cookie started the session: the browser kept it.
    expect((await browser.cookies(server.url)).map((cookie) => cookie.name).sort()).toEqual(["outpost.session", "outpost.session.sig"]);
    const session = (await browser.cookies(server.url)).find((cookie) => cookie.name === "outpost.session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });

    await page.fill("#session-name-input", "Ada");
    await page.click('#session-form button[type="submit"]');
    await page.waitForFunction(() => document.querySelector("#session-name")?.textContent === "Ada");
    // The redirect's GET counted a visit too.
    expect(await text(page, "#visits")).toBe("2");

    await page.click('a[href="/diagnostics/guarded/inner"]');
    await page.waitForSelector("#guarded-name");
    expect(await text(page, "#guarded-name")).toBe("Ada");
    expect(page.url()).toBe(`${server.url}/diagnostics/guarded/inner`);

    expect(documentRequests).toEqual(["/diagnostics"]);
    // The page (its own loader: the layouts above are kept), the form's POST, the page again after
    // its redirect (every loader, after an action), the guarded page (the routes new to the page).
    const routes = (...ids: string[]) => `?_routes=${ids.map(encodeURIComponent).join(",")}`;
    expect(dataRequests).toEqual([
      `/__data/diagnostics/session${routes("diagnostics/SessionPage")}`,
      "/__data/diagnostics/session",
      "/__data/diagnostics/session",
      `/__data/diagnostics/guarded/inner${routes("diagnostics/guarded/GuardedLayout", "diagnostics/guarded/GuardedInner")}`,
    ]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("follows the guarded layout's redirect during a client navigation, with no document load", async () => {
    const { page, problems, documentRequests } = await open("/diagnostics");
    await page.click('a[href="/diagnostics/guarded/inner"]');
    await page.waitForSelector("#visits");
    expect(page.url()).toBe(`${server.url}/diagnostics/session`);
    expect(await page.locator("#guarded-name").count()).toBe(0);
    expect(documentRequests).toEqual(["/diagnostics"]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("loads a resource route's answer as a document when a <Link> points at it", async () => {
    const { page, problems, dataRequests, documentRequests } = await open("/diagnostics");
    await page.hover('a[href="/diagnostics/api/echo?hello=world"]');
    await page.click('a[href="/diagnostics/api/echo?hello=world"]');
    await page.waitForURL(`${server.url}/diagnostics/api/echo?hello=world`);
    await page.waitForLoadState("load");
    expect(JSON.parse((await page.textContent("body")) ?? "")).toEqual({ method: "GET", query: { hello: "world" } });
    expect(documentRequests).toEqual(["/diagnostics", "/diagnostics/api/echo?hello=world"]);
    expect(dataRequests).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows the 403 of /diagnostics/forbidden in the root layout's error component, on a client navigation too", async () => {
    const { page, documentRequests } = await open("/diagnostics");
    await page.click('a[href="/diagnostics/forbidden"]');
    await page.waitForSelector('[data-status="403"]');
    expect(documentRequests).toEqual(["/diagnostics"]);
    await page.close();
  });
});
