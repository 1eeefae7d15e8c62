import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createClientRoutes } from "#src/client/navigation/core/client-routes";
import { routeData } from "#src/client/navigation/core/fetch-route-data";
import { type FetcherDeps, fetcherRequest } from "#src/client/navigation/fetchers/fetcher-request";
import { defineApp, route } from "#src/shared/routing/config";
import type { RouteModule } from "#src/shared/routing/module";

// A fetcher's request against a fake window, document and fetch: what it asks, what it makes of
// each answer, and how it falls back to the browser itself (Chromium: test/e2e/fetchers.test.ts).
const BUILD = "build-1";
const ORIGIN = "https://shop.example";
const config = defineApp({
  root: "Root.tsx",
  notFound: "NotFound.tsx",
  routes: [route("items/:id", "Item.tsx"), route("api/stock", "stock.server.ts")],
});
const component = (() => null) as unknown as RouteModule["default"];
const importers = Object.fromEntries(["Root", "NotFound", "Item"].map((id) => [id, async () => ({ default: component }) as RouteModule]));

let calls: { url: string; init: RequestInit }[];
let answer: () => Response;
let reloads: number;
let submitted: { method: string; action: string; fields: Record<string, string> }[];
let followed: string[];
let invalidations: number;

function deps(): FetcherDeps {
  const env = { location: window.location, fetch: (input, init) => fetch(input, init), document } as FetcherDeps["env"];
  return {
    env,
    routes: createClientRoutes(config, importers),
    data: routeData(env.fetch, BUILD),
    diagnostics: false,
    follow: (location) => followed.push(location),
    invalidate: () => ++invalidations,
  };
}

const json = (body: unknown, status = 200) => () => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const state = (data: Record<string, unknown>, actionData?: unknown) => ({
  kind: "state",
  build: BUILD,
  status: 200,
  state: { pattern: "/items/:id", matches: [{ id: "Root", params: {} }, { id: "Item", params: { id: "7" } }], data, actionData },
});
const submission = (fields: Record<string, string>) => {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.append(name, value);
  return { formData };
};

beforeEach(() => {
  calls = [];
  reloads = 0;
  submitted = [];
  followed = [];
  invalidations = 0;
  vi.stubGlobal("window", { location: { href: `${ORIGIN}/items/7`, reload: () => reloads++ } });
  // Just enough of a document for the native form submission.
  vi.stubGlobal("document", {
    createElement: (tag: string) => {
      if (tag === "input") return { name: "", value: "" };
      const inputs: { name: string; value: string }[] = [];
      return {
        method: "",
        action: "",
        hidden: false,
        append: (input: { name: string; value: string }) => inputs.push(input),
        submit() {
          submitted.push({ method: this.method, action: this.action, fields: Object.fromEntries(inputs.map((i) => [i.name, i.value])) });
        },
      };
    },
    body: { append: () => {} },
  });
  vi.stubGlobal("fetch", async (url: string | URL, init: RequestInit = {}) => {
    calls.push({ url: String(url), init });
    return answer();
  });
});
afterEach(() => vi.unstubAllGlobals());

describe("a fetcher's request", () => {
  it("loads a page's leaf loader only, and answers its data", async () => {
    answer = json(state({ Item: { stock: 3 } }));
    const result = await fetcherRequest(deps(), "/items/7?size=m", undefined, new AbortController().signal);
    expect(result).toEqual({ kind: "data", data: { stock: 3 } });
    expect(calls[0]?.url).toBe("/__data/items/7?size=m&_routes=Item");
    expect(invalidations).toBe(0);
  });

  it("submits to the action with no loader, answers the action's data, and revalidates the page", async () => {
    answer = json(state({}, { saved: true }));
    const result = await fetcherRequest(deps(), "/items/7", submission({ qty: "2" }), new AbortController().signal);
    expect(result).toEqual({ kind: "data", data: { saved: true }, revalidation: 1 });
    expect(calls[0]?.url).toBe("/__data/items/7?_routes=");
    expect(calls[0]?.init.method).toBe("POST");
    expect(String(calls[0]?.init.body)).toBe("qty=2");
  });

  it("reads a resource route's JSON, its failure as { status, data }, and revalidates after a submission", async () => {
    answer = json({ left: 4 });
    expect(await fetcherRequest(deps(), "/api/stock", undefined, new AbortController().signal)).toEqual({ kind: "data", data: { left: 4 } });
    expect(calls[0]?.url).toBe(`${ORIGIN}/api/stock`);
    answer = json({ reason: "sold out" }, 409);
    const refused = await fetcherRequest(deps(), "/api/stock", submission({ qty: "9" }), new AbortController().signal);
    expect(refused).toEqual({ kind: "data", data: { reason: "sold out" }, error: { status: 409, data: { reason: "sold out" } }, revalidation: 1 });
  });

  it("follows a redirect as a navigation", async () => {
    answer = json({ kind: "redirect", build: BUILD, status: 303, location: "/items/8" });
    expect(await fetcherRequest(deps(), "/items/7", submission({ qty: "1" }), new AbortController().signal)).toEqual({ kind: "redirected" });
    expect(followed).toEqual(["/items/8"]);
  });

  it("leaves it to the browser when another build answers: a submission posts natively, a load reloads the page", async () => {
    answer = json({ ...state({}), build: "build-2" });
    const posted = await fetcherRequest(deps(), "/items/7", submission({ qty: "2", note: "gift" }), new AbortController().signal);
    expect(posted).toEqual({ kind: "left" });
    expect(submitted).toEqual([{ method: "post", action: "/items/7", fields: { qty: "2", note: "gift" } }]);
    expect(await fetcherRequest(deps(), "/items/7", undefined, new AbortController().signal)).toEqual({ kind: "left" });
    expect(reloads).toBe(1);
  });

  it("leaves it to the browser when the network fails, but not when a newer call replaced it", async () => {
    answer = () => {
      throw new TypeError("Failed to fetch");
    };
    expect(await fetcherRequest(deps(), "/items/7", submission({ qty: "2" }), new AbortController().signal)).toEqual({ kind: "left" });
    expect(submitted).toHaveLength(1);
    const replaced = new AbortController();
    replaced.abort();
    await expect(fetcherRequest(deps(), "/items/7", submission({ qty: "3" }), replaced.signal)).rejects.toThrow("Failed to fetch");
    expect(submitted).toHaveLength(1);
  });
});
