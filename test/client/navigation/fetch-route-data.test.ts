import { afterEach, describe, expect, it, vi } from "vitest";
import { routeData } from "#src/client/navigation/core/fetch-route-data";

// The fetch stubbed by each test, read when called.
const data = (buildId: string) => routeData((input, init) => fetch(input, init), buildId);
const fetchRouteData = (url: URL, buildId: string, signal?: AbortSignal, routes?: readonly string[]) => data(buildId).load(url, signal, routes);
const submitRouteData = (url: URL, buildId: string, body: URLSearchParams | FormData) => data(buildId).submit(url, body);

const BUILD = "build-1";
const state = { pattern: "/items/:id", matches: [], data: {} };

/** fetch answering with `body` as `type`, recording what it was asked. */
function answerWith(body: string, type = "application/json") {
  const calls: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(body, { headers: { "Content-Type": type } });
  });
  return calls;
}

const page = new URL("https://shop.example/items/7?tab=reviews");

describe("fetchRouteData", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("asks the data URL of the page, with the build id, the query and the routes it wants", async () => {
    const calls = answerWith(JSON.stringify({ kind: "state", build: BUILD, status: 200, state }));
    const answer = await fetchRouteData(page, BUILD, undefined, ["items/ItemPage"]);
    expect(answer).toMatchObject({ kind: "state", status: 200 });
    expect(calls[0]?.url).toBe("/__data/items/7?tab=reviews&_routes=items%2FItemPage");
    expect(calls[0]?.init.headers).toMatchObject({ "X-Outpost-Build": BUILD });
  });

  it("follows a redirect answer as data, never as a fetch redirect", async () => {
    answerWith(JSON.stringify({ kind: "redirect", build: BUILD, status: 303, location: "/done" }));
    expect(await fetchRouteData(page, BUILD)).toEqual({ kind: "redirect", build: BUILD, status: 303, location: "/done" });
  });

  it("reloads the page for another build's answer (deploy skew)", async () => {
    answerWith(JSON.stringify({ kind: "state", build: "build-2", status: 200, state }));
    expect(await fetchRouteData(page, BUILD)).toEqual({ kind: "reload" });
  });

  it("reloads the page for anything that is not the data format", async () => {
    for (const [body, type] of [
      ["<html>a proxy's error page</html>", "text/html"],
      ["{not json", "application/json"],
      [JSON.stringify({ error: "build other is not the server's build", build: "x" }), "application/json"],
      [JSON.stringify({ kind: "redirect", build: BUILD, status: 303 }), "application/json"],
      [JSON.stringify({ kind: "state", build: BUILD, status: 200, state: null }), "application/json"],
    ]) {
      answerWith(body as string, type);
      expect(await fetchRouteData(page, BUILD), body).toEqual({ kind: "reload" });
    }
  });

  it("a network failure rejects, for the router to load the page itself", async () => {
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("Failed to fetch");
    });
    await expect(fetchRouteData(page, BUILD)).rejects.toThrow("Failed to fetch");
  });

  it("submits a form as a POST to the same data URL", async () => {
    const calls = answerWith(JSON.stringify({ kind: "state", build: BUILD, status: 422, state }));
    const body = new URLSearchParams({ name: "Ada" });
    expect(await submitRouteData(page, BUILD, body)).toMatchObject({ status: 422 });
    expect(calls[0]?.init).toMatchObject({ method: "POST", body, credentials: "same-origin" });
    expect(calls[0]?.url).toBe("/__data/items/7?tab=reviews");
  });
});
