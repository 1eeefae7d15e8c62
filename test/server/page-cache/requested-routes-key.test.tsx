import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route } from "#src/shared/routing/config";
import { BUILD_HEADER } from "#src/shared/routing/data-request";
import { loadAppRoutes } from "../../support/app-routes";
import { send } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";

// A data request that asks for no loaders at all (`_routes=`, as a client whose routes all kept
// their data may) is another answer than one that asks for every loader: kept under one key,
// every client navigation to the page would get no data.

const routes = await loadAppRoutes({
  routes: [route("test/catalogue", "test/catalogue.tsx")],
  files: {
    "test/catalogue.tsx": {
      module: { default: ({ data }: { data: { items: string[] } }) => <p>{data.items.join(", ")}</p> },
      server: { cache: { maxAge: 60 }, load: () => ({ items: ["tea", "coffee"] }) },
    },
  },
});

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({}, { routes });
});
afterAll(() => app.close());

const data = async (query: string) => {
  const answer = await send(Number(new URL(app.url).port), `/__data/test/catalogue${query}`, { method: "GET", headers: { [BUILD_HEADER]: app.deps.assets.manifest.buildId } });
  return (JSON.parse(answer.text()) as { state: { data: Record<string, unknown> } }).state.data;
};

describe("a kept page's data answer for no routes", () => {
  for (const query of ["?_routes=", "?_routes=,"]) {
    it(`${query} is never what a request for every route is answered`, async () => {
      expect(await data(query)).toEqual({});
      expect((await data(""))["test/catalogue"]).toEqual({ items: ["tea", "coffee"] });
      expect(await data(query)).toEqual({});
    });
  }
});
