import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_HEADER, type DataAnswer } from "#src/shared/routing/data-request";
import { startTestApp, type TestApp } from "../../../support/test-app";

// A data request may name the routes whose loaders it wants: `?_routes=id,id`.
let app: TestApp;
let build: string;

beforeAll(async () => {
  app = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true" });
  build = app.deps.assets.manifest.buildId;
});
afterAll(() => app.close());

async function data(path: string, init: RequestInit = {}) {
  const response = await fetch(`${app.url}/__data${path}`, { ...init, headers: { [BUILD_HEADER]: build, origin: app.url } });
  return { response, body: (await response.json()) as DataAnswer & { error?: string } };
}

const LAYOUT = "diagnostics/revalidation/RevalidationLayout";
const SECOND = "diagnostics/revalidation/SecondChild";
const layoutRuns = async () => {
  const { body } = await data("/diagnostics/revalidation/first");
  return body.kind === "state" ? (body.state.data[LAYOUT] as { runs: number }).runs : Number.NaN;
};

describe("a data request naming its routes", () => {
  it("runs only those routes' loaders, and answers the whole chain", async () => {
    const before = await layoutRuns();
    const { response, body } = await data(`/diagnostics/revalidation/second?_routes=${encodeURIComponent(SECOND)}`);
    expect(response.status).toBe(200);
    expect(body.kind === "state" && body.state.data).toEqual({ [SECOND]: { child: "second" } });
    expect(body.kind === "state" && body.state.matches.map((match) => match.id)).toEqual(["Layout", "diagnostics/DiagnosticsLayout", LAYOUT, SECOND]);
    expect(await layoutRuns()).toBe(before + 1);
  });

  it("runs none for an empty list, and every one without the parameter", async () => {
    const none = await data("/diagnostics/revalidation/second?_routes=");
    expect(none.body.kind === "state" && none.body.state.data).toEqual({});
    const all = await data("/diagnostics/revalidation/second");
    expect(all.body.kind === "state" && Object.keys(all.body.state.data).sort()).toEqual([LAYOUT, SECOND]);
  });

  it("hides the parameter from loaders, which see the page's own search", async () => {
    const { body } = await data("/test/search?q=boats&_routes=test/search");
    expect(body.kind === "state" && body.state.data["test/search"]).toMatchObject({ query: "boats" });
    const { body: only } = await data("/test/search?_routes=test%2Fsearch&q=kites");
    expect(only.kind === "state" && only.state.data["test/search"]).toMatchObject({ query: "kites" });
  });

  it("refuses an unknown route id with a 400 naming it, before any loader runs", async () => {
    const before = await layoutRuns();
    const { response, body } = await data(`/diagnostics/revalidation/second?_routes=${LAYOUT},no/such/Route`);
    expect(response.status).toBe(400);
    expect(body.error).toBe('_routes names an unknown route: "no/such/Route"');
    expect(await layoutRuns()).toBe(before + 1);
  });

  it("refuses the parameter given twice", async () => {
    const { response, body } = await data(`/diagnostics/revalidation/second?_routes=${LAYOUT}&_routes=${SECOND}`);
    expect(response.status).toBe(400);
    expect(body.error).toBe("_routes must be given once");
  });

  it("applies to a form's submission: the action runs, and only the named loaders", async () => {
    const before = await layoutRuns();
    const { body } = await data("/diagnostics/fetchers?_routes=", {
      method: "POST",
      body: new URLSearchParams({ counter: "a" }),
    });
    expect(body).toMatchObject({ kind: "state", status: 200, state: { data: {}, actionData: { counter: "a" } } });
    expect(await layoutRuns()).toBe(before + 1);
  });

  it("keeps a fetcher's submission behind the CSRF defence: from another site it is refused before the action", async () => {
    const counts = async () => {
      const { body } = await data("/diagnostics/fetchers");
      return body.kind === "state" ? (body.state.data["diagnostics/FetchersPage"] as { counts: { b: number } }).counts.b : Number.NaN;
    };
    const before = await counts();
    const response = await fetch(`${app.url}/__data/diagnostics/fetchers?_routes=`, {
      method: "POST",
      headers: { [BUILD_HEADER]: build, origin: "http://evil.example" },
      body: new URLSearchParams({ counter: "b" }),
    });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("Origin header names another site");
    expect(await counts()).toBe(before);
  });

  it("answers the not-found page whole when the path matches nothing the client named", async () => {
    const { body } = await data(`/no/such/page?_routes=${SECOND}`);
    expect(body).toMatchObject({ kind: "state", status: 404, state: { pattern: "not_found" } });
  });
});
