import { describe, expect, it } from "vitest";
import { hasChromium, type WatchedPage, watchPage } from "../support/browser";
import { fixtureStack } from "../support/fixture-stack";

const PAGE = "/diagnostics/page-cache";

describe.skipIf(!hasChromium)("a cached page in Chromium", () => {
  const stack = fixtureStack({ ENABLE_DIAGNOSTIC_ROUTES: "true" });

  async function open(): Promise<WatchedPage> {
    const watched = watchPage(await stack.browser.newPage());
    await watched.page.goto(`${stack.server.url}${PAGE}`);
    await watched.page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    return watched;
  }

  it("hydrates a kept copy served with its own nonce, and its form shows a new render", async () => {
    const first = await open();
    const second = await open();
    const id = await first.page.textContent("#render-id");
    // The same render, under two different nonces, both allowed by their CSP.
    await expect(second.page.textContent("#render-id")).resolves.toBe(id);
    expect([...first.problems, ...second.problems]).toEqual([]);
    await second.page.click("#revalidate-form button");
    await second.page.waitForFunction((old) => document.querySelector("#render-id")?.textContent !== old, id, { timeout: 5_000 });
    expect(second.problems).toEqual([]);
    await first.page.close();
    await second.page.close();
  });
});
