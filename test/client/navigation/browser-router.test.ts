import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BrowserRouter } from "#src/client/navigation/browser-router";
import { createClientRoutes } from "#src/client/navigation/client-routes";
import { defineApp, index, route } from "#src/shared/routing/config";
import type { RouteModule } from "#src/shared/routing/module";
import type { RouteState } from "#src/shared/routing/route-state";

// The browser router against a fake window and fetch: navigation state, history, redirects and
// deploy skew as units (test/e2e covers the same in Chromium).
const BUILD = "build-1";
const ORIGIN = "https://shop.example";
const config = defineApp({
  root: "Root.tsx",
  notFound: "NotFound.tsx",
  routes: [index("Home.tsx"), route("items/:id", "Item.tsx"), route("api", "api.server.ts")],
});
const component = (() => null) as unknown as RouteModule["default"];
const importers = Object.fromEntries(["Root", "NotFound", "Home", "Item"].map((id) => [id, async () => ({ default: component }) as RouteModule]));

const stateFor = (pattern: string, leaf: string, params: Record<string, string> = {}): RouteState => ({
  pattern,
  matches: [
    { id: "Root", params },
    { id: leaf, params },
  ],
  data: { [leaf]: { leaf, params } },
  styles: [],
});
const HOME = stateFor("/", "Home");

type Answer = Record<string, unknown> | "pending" | "network";
let answers: Map<string, Answer>;
let requested: string[];
let loads: string[];
let history: { method: string; url: string }[];
let pending: ((answer: Answer) => void)[];

function fakeBrowser() {
  answers = new Map();
  requested = [];
  loads = [];
  history = [];
  pending = [];
  const location = new URL(`${ORIGIN}/`);
  const win = {
    location: {
      get href() {
        return location.href;
      },
      get pathname() {
        return location.pathname;
      },
      get search() {
        return location.search;
      },
      assign: (href: string) => loads.push(href),
    },
    history: {
      state: null as unknown,
      scrollRestoration: "auto",
      pushState(state: unknown, _title: string, url: string) {
        history.push({ method: "push", url });
        this.state = state;
        location.href = new URL(url, location).href;
      },
      replaceState(state: unknown, _title: string, url?: string) {
        history.push({ method: "replace", url: url ?? "" });
        this.state = state;
        if (url) location.href = new URL(url, location).href;
      },
    },
    scrollY: 0,
    scrollTo: () => {},
    addEventListener: () => {},
  };
  vi.stubGlobal("window", win);
  vi.stubGlobal("document", { documentElement: { dataset: {} as Record<string, string> }, getElementById: () => null });
  vi.stubGlobal("sessionStorage", { getItem: () => null, setItem: () => {} });
  vi.stubGlobal("fetch", async (url: string) => {
    requested.push(url);
    const path = url.replace(/^\/__data/, "").replace(/[?&]_routes=[^&]*/, "");
    const answer = answers.get(path) ?? { kind: "state", build: BUILD, status: 404, state: stateFor("not_found", "NotFound") };
    const settled = answer === "pending" ? await new Promise<Answer>((resolve) => pending.push(resolve)) : answer;
    if (settled === "network") throw new TypeError("Failed to fetch");
    return new Response(JSON.stringify(settled), { headers: { "Content-Type": "application/json" } });
  });
}

async function startRouter() {
  const routes = createClientRoutes(config, importers);
  await routes.load(["Root", "Home"]);
  const router = new BrowserRouter(routes, { buildId: BUILD, diagnostics: false, state: HOME });
  const seen: string[] = [];
  router.subscribe(() => seen.push(router.navigation().state));
  return { router, seen };
}

const item = (id: string) => ({ kind: "state", build: BUILD, status: 200, state: stateFor("/items/:id", "Item", { id }) });

describe("BrowserRouter", () => {
  beforeEach(fakeBrowser);
  afterEach(() => vi.unstubAllGlobals());

  it("a navigation is loading, then idle on the new page, with one history entry", async () => {
    answers.set("/items/1", item("1"));
    const { router, seen } = await startRouter();
    await router.navigate("/items/1");
    expect(seen).toEqual(["loading", "idle"]);
    expect(router.snapshot().state.matches.at(-1)).toMatchObject({ id: "Item", params: { id: "1" } });
    expect(history.filter((entry) => entry.method === "push")).toEqual([{ method: "push", url: "/items/1" }]);
    expect(loads).toEqual([]);
  });

  it("follows a same-origin redirect as another data request, the redirecting URL never an entry", async () => {
    answers.set("/items/old", { kind: "redirect", build: BUILD, status: 307, location: "/items/2" });
    answers.set("/items/2", item("2"));
    const { router } = await startRouter();
    await router.navigate("/items/old");
    expect(requested.map((url) => url.split("?")[0])).toEqual(["/__data/items/old", "/__data/items/2"]);
    expect(history.filter((entry) => entry.method === "push")).toEqual([{ method: "push", url: "/items/2" }]);
    expect(window.location.pathname).toBe("/items/2");
  });

  it("loads another origin's redirect target as a document, and refuses a javascript: one", async () => {
    answers.set("/items/away", { kind: "redirect", build: BUILD, status: 302, location: "https://elsewhere.example/x" });
    answers.set("/items/evil", { kind: "redirect", build: BUILD, status: 302, location: "javascript:alert(1)" });
    const { router } = await startRouter();
    await router.navigate("/items/away");
    expect(loads).toEqual(["https://elsewhere.example/x"]);
    vi.spyOn(console, "warn").mockImplementation(() => {});
    await router.navigate("/items/evil");
    expect(loads).toEqual(["https://elsewhere.example/x"]);
    expect(router.navigation().state).toBe("idle");
    expect(window.location.pathname).toBe("/");
  });

  it("ends a redirect loop in a full page load", async () => {
    answers.set("/items/loop", { kind: "redirect", build: BUILD, status: 307, location: "/items/loop" });
    const { router } = await startRouter();
    await router.navigate("/items/loop");
    expect(requested.length).toBe(11);
    expect(loads).toEqual([`${ORIGIN}/items/loop`]);
  });

  it("loads the page in full for another build's answer (deploy skew) or a network failure", async () => {
    answers.set("/items/3", { ...item("3"), build: "build-2" });
    answers.set("/items/4", "network");
    const { router } = await startRouter();
    await router.navigate("/items/3");
    await router.navigate("/items/4");
    expect(loads).toEqual([`${ORIGIN}/items/3`, `${ORIGIN}/items/4`]);
    expect(history.filter((entry) => entry.method === "push")).toEqual([]);
  });

  it("the newest navigation wins: an older answer arriving late is never shown", async () => {
    answers.set("/items/slow", "pending");
    answers.set("/items/fast", item("fast"));
    const { router } = await startRouter();
    const slow = router.navigate("/items/slow");
    await router.navigate("/items/fast");
    pending[0]?.(item("slow"));
    await slow;
    expect(router.snapshot().state.matches.at(-1)?.params).toEqual({ id: "fast" });
    expect(window.location.pathname).toBe("/items/fast");
  });

  it("a link to a resource route loads it as a document", async () => {
    const { router } = await startRouter();
    await router.navigate("/api");
    expect(requested).toEqual([]);
    expect(loads).toEqual([`${ORIGIN}/api`]);
  });
});
