import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { defineApp, index, route } from "#src/shared/routing/config";
import type { RoutePattern } from "#src/shared/routing/register";
import { RenderedRoutesContext } from "#src/shared/routing/rendered-routes";
import { useRouteLoaderData } from "#src/shared/routing/route-loader-data";
import type { RouteState } from "#src/shared/routing/route-state";
import { RouteTable } from "#src/shared/routing/route-table";

const table = new RouteTable(
  defineApp({
    root: "Root.tsx",
    notFound: "NotFound.tsx",
    routes: [index("Home.tsx"), route("notes", "notes/Layout.tsx", [index("notes/List.tsx"), route(":id", "notes/Note.tsx")])],
  }),
);

function stateOf(ids: string[], data: Record<string, unknown>): RouteState {
  return { pattern: "/notes/:id", matches: ids.map((id) => ({ id, params: { id: "7" } })), data, styles: [] };
}

// This table is not registered: its patterns are plain strings here.
function Reader({ pattern }: { pattern: string }) {
  return <>{JSON.stringify(useRouteLoaderData(pattern as RoutePattern) ?? null)}</>;
}

const read = (pattern: string, state: RouteState, withTable = true) =>
  renderToString(
    withTable ? (
      <RenderedRoutesContext value={{ state, table }}>
        <Reader pattern={pattern} />
      </RenderedRoutesContext>
    ) : (
      <Reader pattern={pattern} />
    ),
  ).replaceAll("&quot;", '"');

describe("useRouteLoaderData", () => {
  const state = stateOf(["Root", "notes/Layout", "notes/Note"], { Root: { user: "ada" }, "notes/Layout": { count: 3 }, "notes/Note": { id: "7" } });

  it("reads a matched layout's loader data by its full pattern, from anywhere in the page", () => {
    expect(read("/notes", state)).toBe('{"count":3}');
    expect(read("/notes/:id", state)).toBe('{"id":"7"}');
  });

  it("reads the root layout's by /, though the home page (an index route) shares the pattern", () => {
    expect(read("/", state)).toBe('{"user":"ada"}');
  });

  it("reads the layout, not its index route, where both have the pattern", () => {
    const list = stateOf(["Root", "notes/Layout", "notes/List"], { "notes/Layout": { count: 3 }, "notes/List": { items: [] } });
    expect(read("/notes", list)).toBe('{"count":3}');
  });

  it("gives undefined for a route not in the matched chain, an unknown pattern, or outside a page", () => {
    expect(read("/notes/:id", stateOf(["Root", "Home"], {}))).toBe("null");
    expect(read("/nowhere", state)).toBe("null");
    expect(read("/notes", state, false)).toBe("null");
  });
});
