import { describe, expect, it } from "vitest";
import { BUILD, fakeBrowser, page, startRouter, stateFor } from "./support/fake-browser";

// Prefetch on intent through the router in a fake browser: one request for hover and click,
// never an answer from before an action.
describe("prefetch", () => {
  it("a click after a prefetch renders from its answer, with no second request", async () => {
    const browser = fakeBrowser();
    browser.answer("/items/1", page("1"));
    const { router } = await startRouter(browser);
    router.prefetch("/items/1");
    router.prefetch("/items/1");
    await router.navigate("/items/1");
    expect(browser.log.requests.map((request) => request.path)).toEqual(["/items/1"]);
    expect(router.state().page.matches.at(-1)?.params).toEqual({ id: "1" });
  });

  it("an answer prefetched before an action answered is not used after it: the data generation moved on", async () => {
    const browser = fakeBrowser("/items/1");
    browser.answer("/items/2", page("2"));
    browser.answer("/items/1", page("1"));
    browser.answer("POST /items/1", { kind: "state", build: BUILD, status: 200, state: stateFor("/items/:id", "Item", { id: "1" }, { ok: true }) });
    const { router } = await startRouter(browser, stateFor("/items/:id", "Item", { id: "1" }));
    router.prefetch("/items/2");
    const form = new FormData();
    form.append("qty", "1");
    await router.fetch("save", "/items/1", { formData: form });
    await router.navigate("/items/2");
    expect(browser.log.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "GET /items/2",
      "POST /items/1",
      "GET /items/1",
      "GET /items/2",
    ]);
  });

  it("a prefetch of another origin or a resource route asks nothing", async () => {
    const browser = fakeBrowser();
    const { router } = await startRouter(browser);
    router.prefetch("https://elsewhere.example/x");
    router.prefetch("/api");
    expect(browser.log.requests).toEqual([]);
  });
});
