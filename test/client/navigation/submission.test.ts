import { describe, expect, it } from "vitest";
import { BUILD, fakeBrowser, page, redirect, startRouter, stateFor, until } from "./support/fake-browser";

// A <Form>'s submission through the router in a fake browser: its state, what it sends, and
// the page or redirect the action answers with (test/e2e/forms.test.ts in Chromium).
const form = (fields: Record<string, string>) => new URLSearchParams(fields);

describe("submission", () => {
  it("is submitting with the form's data, then shows the form's page with the action's data and no new entry", async () => {
    const browser = fakeBrowser("/items/1");
    browser.answer("POST /items/1", { kind: "state", build: BUILD, status: 422, state: stateFor("/items/:id", "Item", { id: "1" }, { errors: { qty: "Too many" } }) });
    browser.answer("POST /items/slow", "pending");
    const { router, seen } = await startRouter(browser, stateFor("/items/:id", "Item", { id: "1" }));
    const done = router.submit(`https://shop.example/items/1`, form({ qty: "99" }));
    const { navigation } = router.state();
    expect(navigation).toMatchObject({ state: "submitting", location: "/items/1", formMethod: "POST", formAction: "/items/1" });
    expect(navigation.state === "submitting" && navigation.formData.get("qty")).toBe("99");
    expect(browser.dataset.navigating).toBe("true");
    expect(await done).toBe("done");
    expect(seen).toEqual(["submitting", "idle"]);
    expect(router.state().page.actionData).toEqual({ errors: { qty: "Too many" } });
    expect(browser.log.requests[0]).toMatchObject({ method: "POST", path: "/items/1", body: "qty=99" });
    expect(browser.log.pushed).toEqual([]);
    expect(browser.dataset.navigating).toBeUndefined();
  });

  it("follows the action's 303 as a navigation that runs every loader (post/redirect/get)", async () => {
    const browser = fakeBrowser("/items/1");
    browser.answer("POST /items/1", redirect("/items/2", 303));
    browser.answer("/items/2", page("2"));
    const { router, seen } = await startRouter(browser, stateFor("/items/:id", "Item", { id: "1" }));
    expect(await router.submit("/items/1", form({ qty: "1" }))).toBe("done");
    expect(seen).toEqual(["submitting", "loading", "idle"]);
    expect(browser.log.requests.map((request) => `${request.method} ${request.path} ${request.routes}`)).toEqual(["POST /items/1 null", "GET /items/2 null"]);
    expect(browser.log.pushed).toEqual(["/items/2"]);
    expect(router.state().page.matches.at(-1)?.params).toEqual({ id: "2" });
  });

  it("leaves the form to the browser for another build's answer or a network failure, and turns idle", async () => {
    const browser = fakeBrowser("/items/1");
    browser.answer("POST /items/1", page("1", "build-2"));
    browser.answer("POST /items/2", "network");
    const { router } = await startRouter(browser, stateFor("/items/:id", "Item", { id: "1" }));
    expect(await router.submit("/items/1", form({ qty: "1" }))).toBe("fallback");
    expect(await router.submit("/items/2", form({ qty: "1" }))).toBe("fallback");
    expect(await router.submit("https://elsewhere.example/x", form({ qty: "1" }))).toBe("fallback");
    expect(router.state().navigation.state).toBe("idle");
    expect(browser.dataset.navigating).toBeUndefined();
    expect(browser.log.fullLoads).toEqual([]);
  });

  it("a link clicked while a submission is on its way supersedes it", async () => {
    const browser = fakeBrowser("/items/1");
    browser.answer("POST /items/1", "pending");
    browser.answer("/items/3", page("3"));
    const { router } = await startRouter(browser, stateFor("/items/:id", "Item", { id: "1" }));
    const submitted = router.submit("/items/1", form({ qty: "1" }));
    await router.navigate("/items/3");
    expect(browser.log.requests[0]?.signal?.aborted).toBe(true);
    expect(await submitted).toBe("done");
    await until(router, (state) => state.navigation.state === "idle");
    expect(router.state().page.matches.at(-1)?.params).toEqual({ id: "3" });
  });
});
