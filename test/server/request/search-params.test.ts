import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_HEADER, type DataAnswer } from "#src/shared/routing/data-request";
import { recordingMonitoring } from "../../support/fake-monitoring";
import { documentPayload } from "../../support/html";
import { startTestApp, type TestApp } from "../../support/test-app";

// /diagnostics/search: `page` a whole number ≥ 1 (default 1), `sort` asc or desc (default asc).
let app: TestApp;
const { monitoring, errors } = recordingMonitoring();
beforeAll(async () => {
  app = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true" }, { monitoring });
});
afterAll(() => app.close());

const page = async (query: string, method = "GET") => {
  const response = await fetch(`${app.url}/diagnostics/search${query}`, { method });
  return { status: response.status, html: await response.text() };
};
const errorLogs = () => app.logs.filter((line) => line.level >= 50);

describe("a page's searchParams schema", () => {
  it("gives the loader the schema's defaults for an empty query", async () => {
    const { status, html } = await page("");
    expect(status).toBe(200);
    expect(html).toContain('<span id="search-page">1</span>');
    expect(html).toContain('<span id="search-sort">asc</span>');
  });

  it("gives the loader typed values parsed from the query, and links built by href() with a search", async () => {
    const { status, html } = await page("?page=3&sort=desc");
    expect(status).toBe(200);
    expect(html).toContain('<span id="search-page">3</span>');
    expect(html).toContain('<span id="search-sort">desc</span>');
    expect(html).toContain('href="/diagnostics/search?page=2"');
    expect(html).toContain('href="/diagnostics/search?page=3&amp;sort=asc"');
  });

  it.each(["?page=0", "?page=x", "?sort=up", "?page=1.5"])("answers %s with 400 through the error component, neither reported nor logged as an error", async (query) => {
    const { status, html } = await page(query);
    expect(status).toBe(400);
    expect(html).toContain('data-status="400"');
    expect(html).not.toContain('id="search-page"');
    expect(errors).toEqual([]);
    expect(errorLogs()).toEqual([]);
  });

  it.each(["?__proto__=1", "?__proto__=1&__proto__=2", "?constructor=x", "?sort=desc&toString=1", "?hasOwnProperty=1", "?valueOf=1&length=2"])(
    "reads %s's member-named keys as unknown parameters, which the schema ignores",
    async (query) => {
      const { status, html } = await page(query);
      expect(status).toBe(200);
      expect(html).toContain(`<span id="search-sort">${query.includes("sort=desc") ? "desc" : "asc"}</span>`);
    },
  );

  it("answers a query of 8,000 repeated parameters like any other", async () => {
    const { status, html } = await page(`?page=2&${"p&".repeat(8_000)}`);
    expect(status).toBe(200);
    expect(html).toContain('<span id="search-page">2</span>');
  });

  it("answers a HEAD as the GET", async () => {
    expect((await page("?page=2", "HEAD")).status).toBe(200);
    expect((await page("?page=0", "HEAD")).status).toBe(400);
  });

  it("answers a client navigation's data request with the 400 error state and the schema's issues", async () => {
    const build = app.deps.assets.manifest.buildId;
    const response = await fetch(`${app.url}/__data/diagnostics/search?page=0&sort=up`, { headers: { [BUILD_HEADER]: build } });
    const body = (await response.json()) as Extract<DataAnswer, { kind: "state" }>;
    // A data answer is itself a 200: the page's status travels in it.
    expect(response.status).toBe(200);
    expect(body.status).toBe(400);
    expect(body.state.error?.error.status).toBe(400);
    expect(body.state.error?.error.data).toEqual({
      issues: [
        { path: ["page"], message: "page must be 1 or more" },
        { path: ["sort"], message: "sort must be asc or desc" },
      ],
    });
    expect(errors).toEqual([]);
  });

  it("answers the data request of a good query with the parsed values", async () => {
    const build = app.deps.assets.manifest.buildId;
    const response = await fetch(`${app.url}/__data/diagnostics/search?page=5`, { headers: { [BUILD_HEADER]: build } });
    const body = (await response.json()) as Extract<DataAnswer, { kind: "state" }>;
    expect(response.status).toBe(200);
    expect(body.state.data["diagnostics/SearchPage"]).toEqual({ page: 5, sort: "asc" });
  });
});

describe("a query schema beyond a page's loader", () => {
  const post = (path: string) =>
    fetch(`${app.url}${path}`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "note=hi" });

  it("gives an action its parsed search, and refuses a bad query before the action runs", async () => {
    const good = await post("/test/query-action?page=4");
    expect(good.status).toBe(200);
    expect(documentPayload(await good.text()).state.actionData).toEqual({ search: { page: 4 } });
    const bad = await post("/test/query-action?page=0");
    expect(bad.status).toBe(400);
    expect(documentPayload(await bad.text()).state.actionData).toBeUndefined();
  });

  it("hands an empty value (?page=, ?page) to the schema as the empty string, not as absent: no default applies", async () => {
    for (const query of ["?page=", "?page"]) {
      const response = await fetch(`${app.url}/test/query-api${query}`);
      expect(response.status).toBe(400);
      // coerce.number() reads "" as 0, which the check refuses; an absent page would be the default, 1.
      expect(await response.json()).toEqual({ issues: [{ path: ["page"], message: "page must be 1 or more" }] });
    }
    expect((await page("?sort=")).status).toBe(400);
  });

  it("answers a resource route's refused query as JSON 400 with the issues", async () => {
    const good = await fetch(`${app.url}/test/query-api`);
    expect(await good.json()).toEqual({ search: { page: 1 } });
    const bad = await fetch(`${app.url}/test/query-api?page=0`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ issues: [{ path: ["page"], message: "page must be 1 or more" }] });
    expect(errors).toEqual([]);
  });

  it("fails a page whose schema validates asynchronously as a server error, reported with the route's name", async () => {
    const response = await fetch(`${app.url}/test/query-async`);
    expect(response.status).toBe(500);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toContain("searchParams of route test/query-async: its schema validates asynchronously");
    errors.length = 0;
  });
});

describe("a layout's loader data read by its child (useRouteLoaderData)", () => {
  it("is rendered by /diagnostics/parent/child, which has no loader, and linked from the index", async () => {
    const response = await fetch(`${app.url}/diagnostics/parent/child`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<span id="parent-label">parent data</span>');
    expect(await (await fetch(`${app.url}/diagnostics`)).text()).toContain('href="/diagnostics/parent/child"');
  });
});
