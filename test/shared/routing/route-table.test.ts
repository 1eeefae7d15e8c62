import { describe, expect, it } from "vitest";
import { defineApp, index, route } from "#src/shared/routing/config";
import { RouteTable } from "#src/shared/routing/route-table";

const table = new RouteTable(
  defineApp({
    root: "root/Root.tsx",
    notFound: "NotFound.tsx",
    routes: [
      index("Home.tsx"),
      route("items", "items/Layout.tsx", [
        index("items/List.tsx"),
        route("new", "items/New.tsx"),
        route(":id", "items/Item.tsx", [index("items/Overview.tsx"), route("edit", "items/Edit.tsx")]),
      ]),
      route("files/*", "Files.tsx"),
      route("admin", "admin/Layout.tsx", [route("stats", "admin/Stats.tsx")], { diagnostic: true }),
    ],
  }),
);
const match = (path: string, diagnostics = false) => table.match(path, { diagnostics });
const ids = (path: string) => match(path)?.matches.map((m) => m.id);

describe("the route table", () => {
  it("matches a nested chain, root layout first, named by the deepest route's full pattern", () => {
    expect(match("/items/42/edit")).toEqual({
      pattern: "/items/:id/edit",
      matches: [
        { id: "root/Root", params: { id: "42" } },
        { id: "items/Layout", params: { id: "42" } },
        { id: "items/Item", params: { id: "42" } },
        { id: "items/Edit", params: { id: "42" } },
      ],
    });
  });

  it("renders index routes at their parent's own path", () => {
    expect(match("/")?.pattern).toBe("/");
    expect(ids("/")).toEqual(["root/Root", "Home"]);
    expect(ids("/items")).toEqual(["root/Root", "items/Layout", "items/List"]);
    expect(ids("/items/7")).toEqual(["root/Root", "items/Layout", "items/Item", "items/Overview"]);
  });

  it("ranks static segments above parameters, whatever the declaration order", () => {
    expect(match("/items/new")?.pattern).toBe("/items/new");
    expect(match("/items/old")?.pattern).toBe("/items/:id");
  });

  it("ranks a static segment above a parameter above a splat, in either declaration order", () => {
    const notes = (routes: ReturnType<typeof route>[]) =>
      new RouteTable(defineApp({ root: "Root.tsx", notFound: "NotFound.tsx", routes: [route("notes", "Notes.tsx", routes)] }));
    const paramFirst = [route("*", "Rest.tsx"), route(":id", "Note.tsx"), route(":id/:tab", "Tab.tsx"), route("new", "New.tsx"), route("new/:draft", "Draft.tsx")];
    for (const order of [paramFirst, [...paramFirst].reverse()]) {
      const table = notes(order);
      const pattern = (path: string) => table.match(path, { diagnostics: false })?.pattern;
      expect(pattern("/notes/new")).toBe("/notes/new");
      expect(pattern("/notes/new/")).toBe("/notes/new");
      expect(pattern("/notes/7")).toBe("/notes/:id");
      expect(pattern("/notes/new/a")).toBe("/notes/new/:draft");
      expect(pattern("/notes/7/a")).toBe("/notes/:id/:tab");
      expect(pattern("/notes/7/a/b")).toBe("/notes/*");
    }
  });

  it("decodes parameters and collects the rest after *", () => {
    expect(match("/items/a%20b")?.matches[0]?.params).toEqual({ id: "a b" });
    expect(match("/files/docs/read%20me.txt")?.matches[0]?.params).toEqual({ "*": "docs/read me.txt" });
    expect(match("/items/%E0%A4%A")).toBeNull();
  });

  it("matches no layout by itself, nor paths beyond a leaf, and ignores empty segments", () => {
    expect(match("/admin", true)).toBeNull();
    expect(match("/items/1/edit/more")).toBeNull();
    expect(match("//items///new/")?.pattern).toBe("/items/new");
  });

  it("serves diagnostic routes, and every route below them, only when asked to", () => {
    expect(match("/admin/stats")).toBeNull();
    expect(match("/admin/stats", true)?.pattern).toBe("/admin/stats");
  });

  it("puts the not-found page inside the root layout", () => {
    expect(table.notFound()).toEqual({
      pattern: "not_found",
      matches: [
        { id: "root/Root", params: {} },
        { id: "NotFound", params: {} },
      ],
    });
  });
});
