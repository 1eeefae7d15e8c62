import { describe, expect, it } from "vitest";
import { BUILD, fakeBrowser, redirect, startRouter, stateFor, until } from "./support/fake-browser";

// Fetchers in the router's store, by key, in a fake browser (test/e2e/fetchers.test.ts in Chromium).
const ITEM = stateFor("/items/:id", "Item", { id: "1" });
const answered = (data: Record<string, unknown>, actionData?: unknown) => ({
  kind: "state",
  build: BUILD,
  status: 200,
  state: { ...stateFor("/items/:id", "Item", { id: "1" }, actionData), data },
});
const submission = (fields: Record<string, string>) => {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.append(name, value);
  return { formData };
};
const inFlight = (router: Awaited<ReturnType<typeof startRouter>>["router"]) =>
  [...router.state().fetchers].filter(([, fetcher]) => fetcher.state !== "idle").map(([key, fetcher]) => `${key} ${fetcher.state}`);

describe("fetchers", () => {
  it("a load is listed while loading, then idle with the leaf loader's data; the page stays", async () => {
    const browser = fakeBrowser("/items/1");
    browser.answer("/items/7", "pending");
    const { router } = await startRouter(browser, ITEM);
    router.retainFetcher("stock");
    const loaded = router.fetch("stock", "/items/7", undefined);
    await browser.requested(1);
    expect(inFlight(router)).toEqual(["stock loading"]);
    expect(router.state().navigation.state).toBe("idle");
    expect(browser.log.requests[0]).toMatchObject({ path: "/items/7", routes: "Item" });
    browser.log.requests[0]?.release(answered({ Item: { stock: 3 } }));
    await loaded;
    expect(router.state().fetchers.get("stock")).toEqual({ state: "idle", data: { stock: 3 }, error: undefined, formData: undefined });
    expect(inFlight(router)).toEqual([]);
    expect(browser.path()).toBe("/items/1");
    expect(browser.log.pushed).toEqual([]);
  });

  it("a submission is submitting, then loading with its form data until the revalidated page is on screen, then idle in that same change", async () => {
    const browser = fakeBrowser("/items/1");
    browser.answer("POST /items/1", answered({}, { likes: 5 }));
    browser.answer("/items/1", "pending");
    const { router } = await startRouter(browser, ITEM);
    router.retainFetcher("like");
    const changes: string[] = [];
    router.subscribe(() => {
      const fetcher = router.state().fetchers.get("like");
      changes.push(`${fetcher?.state} ${fetcher?.formData?.get("shown") ?? "-"} ${JSON.stringify(router.state().page.data.Item)}`);
    });
    const submitted = router.fetch("like", "/items/1", submission({ shown: "5" }));
    expect(inFlight(router)).toEqual(["like submitting"]);
    await submitted;
    expect(router.state().revalidation).toBe("loading");
    expect(router.state().fetchers.get("like")).toMatchObject({ state: "loading", data: { likes: 5 } });
    const [action, revalidation] = browser.log.requests;
    expect(action).toMatchObject({ method: "POST", routes: "" });
    expect(revalidation).toMatchObject({ method: "GET", path: "/items/1" });
    revalidation?.release(answered({ Root: {}, Item: { likes: 5 } }));
    await until(router, (state) => state.revalidation === "idle");
    expect(changes.at(-1)).toBe('idle - {"likes":5}');
    expect(changes).not.toContain('idle - {"leaf":"Item","params":{"id":"1"}}');
    expect(router.state().navigation.state).toBe("idle");
    expect(browser.log.pushed).toEqual([]);
  });

  it("a newer call of the same key aborts the older; other keys run side by side", async () => {
    const browser = fakeBrowser("/items/1");
    browser.answer("/items/7", "pending");
    browser.answer("/items/8", "pending");
    const { router } = await startRouter(browser, ITEM);
    router.fetch("a", "/items/7", undefined);
    router.fetch("b", "/items/7", undefined);
    const newer = router.fetch("a", "/items/8", undefined);
    await browser.requested(3);
    const [olderA, b, newerA] = browser.log.requests;
    expect([olderA?.signal?.aborted, b?.signal?.aborted, newerA?.signal?.aborted]).toEqual([true, false, false]);
    newerA?.release(answered({ Item: { id: 8 } }));
    await newer;
    expect(router.state().fetchers.get("a")?.data).toEqual({ id: 8 });
    expect(inFlight(router)).toEqual(["b loading"]);
  });

  it("the last component using a key to unmount aborts its request and drops it from the list", async () => {
    const browser = fakeBrowser("/items/1");
    browser.answer("/items/7", "pending");
    const { router } = await startRouter(browser, ITEM);
    const first = router.retainFetcher("shared");
    const second = router.retainFetcher("shared");
    const loaded = router.fetch("shared", "/items/7", undefined);
    await browser.requested(1);
    first();
    expect(browser.log.requests[0]?.signal?.aborted).toBe(false);
    second();
    expect(browser.log.requests[0]?.signal?.aborted).toBe(true);
    await loaded;
    expect(router.state().fetchers.has("shared")).toBe(false);
  });

  it("follows an action's redirect as a navigation, and a load another build answers reloads the page", async () => {
    const browser = fakeBrowser("/items/1");
    browser.answer("POST /items/1", redirect("/items/2", 303));
    browser.answer("/items/2", { ...answered({}), state: stateFor("/items/:id", "Item", { id: "2" }) });
    browser.answer("/items/9", { ...answered({}), build: "build-2" });
    const { router } = await startRouter(browser, ITEM);
    await router.fetch("save", "/items/1", submission({ qty: "1" }));
    await until(router, (state) => state.location.pathname === "/items/2");
    expect(router.state().fetchers.get("save")?.state).toBe("idle");
    expect(browser.log.pushed).toEqual(["/items/2"]);
    await router.fetch("stock", "/items/9", undefined);
    expect(browser.log.reloads).toBe(1);
  });
});
