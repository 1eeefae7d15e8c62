import { createElement } from "react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoadedRouteFile } from "#src/server/routing/app-routes";
import { route } from "#src/shared/routing/config";
import { BUILD_HEADER } from "#src/shared/routing/data-request";
import type { Params } from "#src/shared/routing/match";
import { loadAppRoutes } from "../../support/app-routes";
import { startTestApp, type TestApp } from "../../support/test-app";

// Pages at `/o/:lang?/about`, a static `/o/about/team` and a required `/o/:section/contact` beside an optional one.
const page = (name: string): LoadedRouteFile => ({
  module: { default: ({ data }: { data: unknown }) => createElement("p", { id: "page" }, `${name} ${JSON.stringify(data)}`) },
  server: { load: ({ params }: { params: Params }) => ({ lang: params.lang ?? null, section: params.section ?? null }) },
});
const files: Record<string, LoadedRouteFile> = {
  "o/About.tsx": page("about"),
  "o/Team.tsx": page("team"),
  "o/Contact.tsx": page("contact"),
  "o/Section.tsx": page("section"),
};
const routes = await loadAppRoutes({
  routes: [
    route("o/:lang?/about", "o/About.tsx"),
    route("o/about/team", "o/Team.tsx"),
    route("o/:lang?/contact", "o/Contact.tsx"),
    route("o/:section/contact", "o/Section.tsx"),
  ],
  files,
});

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({}, { routes });
});
afterAll(() => app.close());

const pageText = async (path: string) => {
  const response = await fetch(`${app.url}${path}`);
  const html = await response.text();
  return { status: response.status, text: /<p id="page">([^<]*)<\/p>/.exec(html)?.[1]?.replaceAll("&quot;", '"') };
};

describe("a page with an optional segment", () => {
  it("answers the path with and without the segment, its loader reading the param or undefined", async () => {
    expect(await pageText("/o/about")).toEqual({ status: 200, text: 'about {"lang":null,"section":null}' });
    expect(await pageText("/o/en/about")).toEqual({ status: 200, text: 'about {"lang":"en","section":null}' });
    expect(await pageText("/o/about/team")).toEqual({ status: 200, text: 'team {"lang":null,"section":null}' });
    expect((await pageText("/o/a/b/about")).status).toBe(404);
  });

  it("ranks after a required param: /o/x/contact is the required route's, /o/contact the optional one's", async () => {
    expect(await pageText("/o/sales/contact")).toEqual({ status: 200, text: 'section {"lang":null,"section":"sales"}' });
    expect(await pageText("/o/contact")).toEqual({ status: 200, text: 'contact {"lang":null,"section":null}' });
  });

  it("is named by its pattern in a navigation's data answer", async () => {
    const response = await fetch(`${app.url}/__data/o/en/about`, { headers: { [BUILD_HEADER]: app.deps.assets.manifest.buildId } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ kind: "state", state: { pattern: "/o/:lang?/about" } });
  });
});
