import { describe, expect, it } from "vitest";
import { hasChromium, watchPage } from "../support/browser";
import { fixtureStack } from "../support/fixture-stack";

// A prerendered page in Chromium (the fixture app's build): it hydrates under its fresh nonce,
// and a client navigation to it is answered by the data answer the build kept.
describe.skipIf(!hasChromium)("a prerendered page in the browser", () => {
  const stack = fixtureStack({ ENABLE_DIAGNOSTIC_ROUTES: "true" });

  it("hydrates when loaded, and a client navigation to it uses its prerendered data answer", async () => {
    const built = /<p id="built-at">([^<]+)<\/p>/.exec(await (await fetch(`${stack.server.url}/diagnostics/prerendered`)).text())?.[1];
    expect(built).toBeTruthy();

    const direct = watchPage(await stack.browser.newPage());
    await direct.page.goto(`${stack.server.url}/diagnostics/prerendered`);
    await direct.page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    expect(direct.problems).toEqual([]);
    await direct.page.close();

    const { page, problems, dataRequests, documentRequests } = watchPage(await stack.browser.newPage());
    await page.goto(`${stack.server.url}/diagnostics`);
    await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    const answered = page.waitForResponse((response) => response.url().includes("/__data/diagnostics/prerendered"));
    await page.click('a[href="/diagnostics/prerendered"]');
    const response = await answered;
    await page.waitForSelector("#built-at");
    expect(await page.textContent("#built-at")).toBe(built);
    // A kept answer carries the stored page's weak validator; a rendered data answer has none.
    expect(await response.headerValue("etag")).toMatch(/^W\//);
    expect(dataRequests.every((url) => url.startsWith("/__data/diagnostics/prerendered"))).toBe(true);
    expect(documentRequests).toEqual(["/diagnostics"]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
