import { describe, expect, it } from "vitest";
import { resolveRoute } from "#src/server/request/core/resolve-route";
import { createAppRoutes, type LoadedRouteFile } from "#src/server/routing/app-routes";
import { defineApp, route } from "#src/shared/routing/config";
import type { ServerRouteModule } from "#src/shared/routing/module";
import type { RequestContext } from "#src/shared/routing/request";
import { notFound, redirect } from "#src/shared/routing/signals";

const Page = () => null;

/** A loader's context with only what these loaders read. */
const contextFor = (path: string, params: Record<string, string> = { id: "7" }) =>
  ({ params, url: new URL(`http://test${path}`) }) as unknown as RequestContext;
const Boundary = () => null;

/** root (with an error component) > section (layout) > page: each with the loader given. */
function chain(loaders: { root?: ServerRouteModule["load"]; section?: ServerRouteModule["load"]; page?: ServerRouteModule["load"] }) {
  const file = (load: ServerRouteModule["load"] | undefined, extra = {}): LoadedRouteFile => ({
    module: { default: Page, ...extra },
    ...(load ? { server: { load } } : {}),
  });
  return createAppRoutes(
    defineApp({ root: "root.tsx", notFound: "missing.tsx", routes: [route("section", "section.tsx", [route(":id", "page.tsx")])] }),
    {
      "root.tsx": file(loaders.root, { ErrorBoundary: Boundary }),
      "missing.tsx": file(undefined),
      "section.tsx": file(loaders.section),
      "page.tsx": file(loaders.page),
    },
  );
}

async function resolve(routes: ReturnType<typeof chain>, path = "/section/7") {
  const reported: unknown[] = [];
  const outcome = await resolveRoute(routes, routes.table.match(path, { diagnostics: false }), contextFor(path), {
    settings: { exposeErrors: false },
    onError: (error) => {
      reported.push(error);
      return `event-${reported.length}`;
    },
  });
  return { outcome, reported };
}

describe("resolving a matched chain", () => {
  it("runs the chain's loaders in parallel and keys their data by route", async () => {
    // Each loader waits for the other to have started: run one after the other, they would never finish.
    let started!: () => void;
    const bothStarted = new Promise<void>((resolve) => {
      let count = 0;
      started = () => ++count === 2 && resolve();
    });
    const load = (value: string) => async () => {
      started();
      await bothStarted;
      return value;
    };
    const { outcome } = await resolve(chain({ section: load("section data"), page: load("page data") }));
    expect(outcome).toEqual({
      type: "state",
      status: 200,
      state: {
        pattern: "/section/:id",
        matches: [
          { id: "root", params: { id: "7" } },
          { id: "section", params: { id: "7" } },
          { id: "page", params: { id: "7" } },
        ],
        data: { section: "section data", page: "page data" },
      },
    });
  });

  it("gives loaders the params and the URL", async () => {
    const { outcome } = await resolve(chain({ page: ({ params, url }) => `${params.id} ${url.pathname}` }));
    expect(outcome.type === "state" && outcome.state.data.page).toBe("7 /section/7");
  });

  it("shows a loader's error in the nearest error component above it, reported once, with its event id", async () => {
    const failure = new Error("page failed");
    const { outcome, reported } = await resolve(chain({ section: () => "fine", page: () => Promise.reject(failure) }));
    expect(reported).toEqual([failure]);
    expect(outcome).toMatchObject({
      type: "state",
      status: 500,
      state: { data: { section: "fine" }, error: { boundaryId: "root", error: { eventId: "event-1" } } },
    });
  });

  it("shows the platform's plain error page when the route that failed has no error component above it", async () => {
    const { outcome } = await resolve(chain({ root: () => Promise.reject(new Error("root failed")) }));
    expect(outcome).toMatchObject({ status: 500, state: { error: { boundaryId: null } } });
  });

  it("reports every failed loader, and the shallowest decides", async () => {
    const { reported, outcome } = await resolve(
      chain({ section: () => Promise.reject(new Error("section")), page: () => Promise.reject(new Error("page")) }),
    );
    expect(reported.map((error) => (error as Error).message).sort()).toEqual(["page", "section"]);
    expect(outcome).toMatchObject({ state: { error: { boundaryId: "root" } } });
  });

  it("follows a redirect signal and reports nothing", async () => {
    const { outcome, reported } = await resolve(chain({ page: () => redirect("/elsewhere", 303) }));
    expect(outcome).toEqual({ type: "redirect", location: "/elsewhere", status: 303 });
    expect(reported).toEqual([]);
  });

  it("turns notFound() into the not-found page inside the root layout, with the root's data", async () => {
    const { outcome, reported } = await resolve(chain({ root: () => "root data", page: () => notFound() }));
    expect(outcome).toEqual({
      type: "state",
      status: 404,
      state: {
        pattern: "not_found",
        matches: [
          { id: "root", params: {} },
          { id: "missing", params: {} },
        ],
        data: { root: "root data" },
      },
    });
    expect(reported).toEqual([]);
  });

  it("answers unmatched paths with the not-found page", async () => {
    const { outcome } = await resolve(chain({}), "/nowhere");
    expect(outcome).toMatchObject({ status: 404, state: { pattern: "not_found" } });
  });

  it("answers without a promise when every loader answers synchronously, and with one otherwise", async () => {
    const resolveWith = (routes: ReturnType<typeof chain>) =>
      resolveRoute(routes, routes.table.match("/section/7", { diagnostics: false }), contextFor("/section/7"), {
        settings: { exposeErrors: false },
        onError: () => undefined,
      });
    const sync = resolveWith(chain({ section: () => "section data", page: () => "page data" }));
    expect(sync).not.toBeInstanceOf(Promise);
    expect(sync).toMatchObject({ type: "state", status: 200 });
    const later = resolveWith(chain({ section: () => "section data", page: async () => "page data" }));
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toEqual(sync);
  });
});
