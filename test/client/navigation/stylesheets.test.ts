import { afterEach, describe, expect, it, vi } from "vitest";
import { STYLESHEET_WAIT_MS } from "#src/client/navigation/core/stylesheets";
import { landingCode } from "#src/client/navigation/router-core";
import { BUILD, fakeBrowser, HOME, page, redirect, startRouter, stateFor, until } from "./support/fake-browser";

// The next page's stylesheets through the router in a fake browser: loaded before the page is
// committed, whatever brought it (a link, a form, a redirect, back, a revalidation), and never
// waited for for ever. What Chromium then shows is test/e2e/route-stylesheets.test.ts's.
const ROOT_CSS = "/assets/root.css";
const LAYOUT_CSS = "/assets/layout.css";
const ITEM_CSS = "/assets/item.css";

const styled = <Answer extends { state: object }>(answer: Answer, styles: string[]) => ({ ...answer, state: { ...answer.state, styles } });
const itemPage = (id: string) => styled(page(id), [ROOT_CSS, LAYOUT_CSS, ITEM_CSS]);
const HOME_STYLED = { ...HOME, styles: [ROOT_CSS] };

/** The browser on `/` with the root's stylesheet linked, and `/items/1` answering with the item's stylesheets. */
async function styledBrowser() {
  const browser = fakeBrowser();
  browser.linkStylesheets(ROOT_CSS);
  browser.answer("/items/1", itemPage("1"));
  const { router } = await startRouter(browser, HOME_STYLED);
  // The landing chunk as a browser has it once fetched: these tests time the stylesheets, not the chunk.
  await landingCode();
  return { browser, router };
}

const shownItem = (router: Awaited<ReturnType<typeof styledBrowser>>["router"]) => router.state().page.matches.at(-1)?.params.id;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.useRealTimers();
});

describe("the next page's stylesheets", () => {
  it("are preloaded, those not linked yet only, and the page is committed once they have loaded", async () => {
    const { browser, router } = await styledBrowser();
    const navigated = router.navigate("/items/1");
    await settle();
    expect(browser.links()).toEqual([`stylesheet ${ROOT_CSS}`, `preload ${LAYOUT_CSS}`, `preload ${ITEM_CSS}`]);
    browser.finishLink(LAYOUT_CSS);
    await settle();
    expect(router.state().navigation.state).toBe("loading");
    expect(browser.path()).toBe("/");
    browser.finishLink(ITEM_CSS);
    await navigated;
    expect(shownItem(router)).toBe("1");
    expect(router.state().page.styles).toEqual([ROOT_CSS, LAYOUT_CSS, ITEM_CSS]);
    // The preloads are gone: the page's own <link rel=stylesheet> (React's) is what stays.
    expect(browser.links()).toEqual([`stylesheet ${ROOT_CSS}`]);
  });

  it("a stylesheet that fails does not hold the page back", async () => {
    const { browser, router } = await styledBrowser();
    const navigated = router.navigate("/items/1");
    await settle();
    browser.finishLink(LAYOUT_CSS, "error");
    browser.finishLink(ITEM_CSS, "error");
    await navigated;
    expect(shownItem(router)).toBe("1");
  });

  it("nor does one that never answers: the page shows after the wait", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { browser, router } = await styledBrowser();
    const navigated = router.navigate("/items/1");
    await vi.advanceTimersByTimeAsync(STYLESHEET_WAIT_MS - 1);
    expect(router.state().navigation.state).toBe("loading");
    await vi.advanceTimersByTimeAsync(1);
    await navigated;
    expect(shownItem(router)).toBe("1");
    expect(browser.links()).toEqual([`stylesheet ${ROOT_CSS}`]);
  });

  it("a page whose stylesheets are all linked waits for none", async () => {
    const { browser, router } = await styledBrowser();
    browser.linkStylesheets(LAYOUT_CSS, ITEM_CSS);
    await router.navigate("/items/1");
    expect(shownItem(router)).toBe("1");
  });

  it("a redirect's target, a form's answer, back and a revalidation wait for theirs too", async () => {
    const { browser, router } = await styledBrowser();
    browser.answer("/moved", redirect("/items/1"));
    const redirected = router.navigate("/moved");
    await settle();
    expect(browser.links()).toContain(`preload ${ITEM_CSS}`);
    browser.finishLink(LAYOUT_CSS);
    browser.finishLink(ITEM_CSS);
    await redirected;
    expect(browser.path()).toBe("/items/1");

    // The form's page answers with a stylesheet of its own (an error shown, another chunk lazily loaded).
    const FORM_CSS = "/assets/form.css";
    browser.answer("POST /items/1", styled({ kind: "state", build: BUILD, status: 200, state: stateFor("/items/:id", "Item", { id: "1" }, { ok: true }) }, [ROOT_CSS, FORM_CSS]));
    const submitted = router.submit("/items/1", new URLSearchParams({ qty: "1" }));
    await settle();
    expect(router.state().page.actionData).toBeUndefined();
    browser.finishLink(FORM_CSS);
    await submitted;
    expect(router.state().page.actionData).toEqual({ ok: true });

    // Back to a page whose stylesheet is no longer linked.
    const HOME_CSS = "/assets/home.css";
    browser.answer("/", { kind: "state", build: BUILD, status: 200, state: { ...HOME_STYLED, styles: [ROOT_CSS, HOME_CSS] } });
    browser.back();
    await settle();
    expect(browser.links()).toContain(`preload ${HOME_CSS}`);
    expect(router.state().navigation.state).toBe("loading");
    browser.finishLink(HOME_CSS);
    await until(router, (state) => state.navigation.state === "idle");
    expect(router.state().page.styles).toEqual([ROOT_CSS, HOME_CSS]);
  });

  it("a fetcher's redirect, followed as a navigation, waits for the target's", async () => {
    const { browser, router } = await styledBrowser();
    browser.answer("POST /", redirect("/items/1", 303));
    const form = new FormData();
    form.append("qty", "1");
    await router.fetch("save", "/", { formData: form });
    await until(router, (state) => state.navigation.state === "loading");
    await settle();
    expect(browser.links()).toEqual([`stylesheet ${ROOT_CSS}`, `preload ${LAYOUT_CSS}`, `preload ${ITEM_CSS}`]);
    expect(browser.path()).toBe("/");
    browser.finishLink(LAYOUT_CSS);
    browser.finishLink(ITEM_CSS);
    await until(router, (state) => state.navigation.state === "idle");
    expect(browser.path()).toBe("/items/1");
    expect(shownItem(router)).toBe("1");
  });

  it("a revalidation whose chain changed waits for the new stylesheets", async () => {
    const browser = fakeBrowser("/items/1");
    browser.linkStylesheets(ROOT_CSS, LAYOUT_CSS, ITEM_CSS);
    const { router } = await startRouter(browser, { ...stateFor("/items/:id", "Item", { id: "1" }), styles: [ROOT_CSS, LAYOUT_CSS, ITEM_CSS] });
    browser.answer("/items/1", styled(page("1"), [ROOT_CSS, LAYOUT_CSS, "/assets/error.css"]));
    let revalidated = false;
    const revalidation = router.revalidate().then(() => {
      revalidated = true;
    });
    await settle();
    expect(browser.links()).toContain("preload /assets/error.css");
    expect(revalidated).toBe(false);
    browser.finishLink("/assets/error.css");
    await revalidation;
    expect(router.state().page.styles).toEqual([ROOT_CSS, LAYOUT_CSS, "/assets/error.css"]);
  });

  it("a prefetch prefetches the stylesheets neither linked nor on their way", async () => {
    const { browser, router } = await styledBrowser();
    router.prefetch("/items/1");
    await settle();
    expect(browser.links()).toEqual([`stylesheet ${ROOT_CSS}`, `prefetch ${LAYOUT_CSS}`, `prefetch ${ITEM_CSS}`]);
    browser.finishLink(LAYOUT_CSS);
    await settle();
    expect(browser.links()).toEqual([`stylesheet ${ROOT_CSS}`, `prefetch ${ITEM_CSS}`]);
    // A second prefetch of the page (its answer used or expired) asks for none on its way.
    browser.answer("/items/2", styled(page("2"), [ROOT_CSS, ITEM_CSS]));
    router.prefetch("/items/2");
    await settle();
    expect(browser.links()).toEqual([`stylesheet ${ROOT_CSS}`, `prefetch ${ITEM_CSS}`]);
  });
});
