import { describe, expect, it } from "vitest";
import { defineApp, route } from "#src/shared/routing/config";
import { href as typedHref } from "#src/shared/routing/href";
import { parsePattern } from "#src/shared/routing/match";
import { RouteTable } from "#src/shared/routing/route-table";

// The run-time behaviour, on patterns of no registered table (test/types checks the types).
const href = typedHref as unknown as (pattern: string, params?: Record<string, string | number | undefined>) => string;

const tableOf = (...routes: ReturnType<typeof route>[]) => new RouteTable(defineApp({ root: "Root.tsx", notFound: "NotFound.tsx", routes }));

describe("optional segments (:name?)", () => {
  const table = tableOf(route(":lang?/about", "About.tsx"), route("shop/:lang?/items/:id", "Item.tsx"), route(":lang?", "Home.tsx"));
  const match = (path: string) => table.match(path, { diagnostics: false });

  it("match the path with and without the segment, the param absent when left out", () => {
    expect(match("/about")).toEqual({ pattern: "/:lang?/about", matches: [{ id: "Root", params: {} }, { id: "About", params: {} }] });
    expect(match("/en/about")?.matches.at(-1)).toEqual({ id: "About", params: { lang: "en" } });
    expect(match("/shop/items/7")?.matches.at(-1)?.params).toEqual({ id: "7" });
    expect(match("/shop/fr/items/7")?.matches.at(-1)?.params).toEqual({ lang: "fr", id: "7" });
    expect(match("/")?.pattern).toBe("/:lang?");
    expect(match("/de")?.matches.at(-1)?.params).toEqual({ lang: "de" });
    expect(match("/a/b/about")).toBeNull();
    expect(match("/shop/a/b/items/7")).toBeNull();
  });

  it("rank after the static and the required forms, whatever the declaration order", () => {
    const routes = [route(":lang?/about", "Optional.tsx"), route(":lang/about", "Required.tsx"), route("about", "Static.tsx"), route("en/about", "English.tsx")];
    for (const order of [routes, [...routes].reverse()]) {
      const ranked = tableOf(...order);
      const pattern = (path: string) => ranked.match(path, { diagnostics: false })?.pattern;
      expect(pattern("/about")).toBe("/about");
      expect(pattern("/about/")).toBe("/about");
      expect(pattern("/en/about")).toBe("/en/about");
      expect(pattern("/fr/about")).toBe("/:lang/about");
    }
    // Without the static and required forms, the optional one answers both paths.
    const alone = tableOf(route(":lang?/about", "Optional.tsx"), route(":section/:page", "Pages.tsx"));
    expect(alone.match("/about", { diagnostics: false })?.pattern).toBe("/:lang?/about");
    expect(alone.match("/fr/about", { diagnostics: false })?.pattern).toBe("/:lang?/about");
    expect(alone.match("/fr/contact", { diagnostics: false })?.pattern).toBe("/:section/:page");
  });

  it("list each page once", () => {
    expect(table.pages().map((page) => page.pattern)).toEqual(["/shop/:lang?/items/:id", "/:lang?/about", "/:lang?"]);
  });

  it("are refused on anything but a param, naming the pattern", () => {
    expect(() => parsePattern("/about/edit?")).toThrow("route pattern /about/edit?: only a :param may be optional (edit?)");
    expect(() => tableOf(route("files/*?", "Files.tsx"))).toThrow(/only a :param may be optional \(\*\?\)/);
  });

  it("are left out of href() without a value, and filled in with one", () => {
    expect(href("/:lang?/about", {})).toBe("/about");
    expect(href("/:lang?/about")).toBe("/about");
    expect(href("/:lang?/about", { lang: undefined })).toBe("/about");
    expect(href("/:lang?/about", { lang: "" })).toBe("/about");
    expect(href("/:lang?/about", { lang: "en" })).toBe("/en/about");
    expect(href("/:lang?/about", { lang: "pt br" })).toBe("/pt%20br/about");
    expect(href("/:lang?", {})).toBe("/");
    expect(href("/shop/:lang?/items/:id", { id: 7 })).toBe("/shop/items/7");
    expect(() => href("/shop/:lang?/items/:id", { lang: "en" })).toThrow(new TypeError('href("/shop/:lang?/items/:id") needs a value for :id'));
  });
});
