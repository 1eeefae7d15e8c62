import { describe, expect, it } from "vitest";
import { headOf, mergeHead } from "#src/shared/routing/head";
import type { RouteModule } from "#src/shared/routing/module";
import type { RouteState } from "#src/shared/routing/route-state";

describe("head tags", () => {
  it("merge along the chain: the deepest title, description and each meta tag win", () => {
    expect(
      mergeHead([
        { title: "Site", description: "A site", meta: [{ name: "robots", content: "index" }, { property: "og:type", content: "website" }] },
        { title: "Section" },
        { title: "Page", meta: [{ property: "og:type", content: "article" }, { name: "author", content: "Ada" }] },
      ]),
    ).toEqual({
      title: "Page",
      description: "A site",
      meta: [
        { name: "robots", content: "index" },
        { property: "og:type", content: "article" },
        { name: "author", content: "Ada" },
      ],
    });
  });

  const modules: Record<string, RouteModule> = {
    root: { default: () => null, head: () => ({ title: "Site", description: "root" }), errorHead: { title: "Oops" } },
    item: { default: () => null, head: ({ data }) => ({ title: `Item ${(data as { id: string }).id}` }) },
  };
  const state = (error?: RouteState["error"]): RouteState => ({
    pattern: "/items/:id",
    matches: [
      { id: "root", params: { id: "1" } },
      { id: "item", params: { id: "1" } },
    ],
    data: { item: { id: "1" } },
    styles: [],
    ...(error ? { error } : {}),
  });
  const lookup = { get: (id: string) => modules[id] as RouteModule };

  it("come from each route's data", () => {
    expect(headOf(state(), lookup)).toMatchObject({ title: "Item 1", description: "root" });
  });

  it("stop at the route showing an error, whose errorHead comes last", () => {
    expect(headOf(state({ boundaryId: "root", error: {} }), lookup)).toMatchObject({ title: "Oops", description: "root" });
    expect(headOf(state({ boundaryId: null, error: {} }), lookup).title).toBe("Something went wrong");
  });

  it("call an errorHead function with the error, so a title can follow its status", () => {
    const byStatus: RouteModule = { default: () => null, errorHead: ({ error }) => ({ title: error.status === 429 ? "Too many requests" : "Oops" }) };
    const chosen = { get: (id: string) => (id === "root" ? byStatus : (modules[id] as RouteModule)) };
    expect(headOf(state({ boundaryId: "root", error: { status: 429, data: {} } }), chosen).title).toBe("Too many requests");
    expect(headOf(state({ boundaryId: "root", error: {} }), chosen).title).toBe("Oops");
  });
});

describe("links, structured data and the document's language", () => {
  it("merge down the chain: one link per rel (and hreflang, sizes, media), every route's JSON-LD, the deepest lang", () => {
    expect(
      mergeHead([
        {
          lang: "en",
          links: [
            { rel: "canonical", href: "https://example.org/" },
            { rel: "icon", href: "/favicon.ico" },
            { rel: "alternate", hrefLang: "fr", href: "https://example.org/fr/" },
          ],
          jsonLd: [{ "@type": "WebSite", name: "Site" }],
        },
        {
          lang: "fr",
          links: [
            { rel: "canonical", href: "https://example.org/items/7" },
            { rel: "alternate", hrefLang: "de", href: "https://example.org/de/items/7" },
          ],
          jsonLd: [{ "@type": "Product", name: "Item 7" }],
        },
      ]),
    ).toEqual({
      title: "",
      meta: [],
      lang: "fr",
      links: [
        { rel: "canonical", href: "https://example.org/items/7" },
        { rel: "icon", href: "/favicon.ico" },
        { rel: "alternate", hrefLang: "fr", href: "https://example.org/fr/" },
        { rel: "alternate", hrefLang: "de", href: "https://example.org/de/items/7" },
      ],
      jsonLd: [
        { "@type": "WebSite", name: "Site" },
        { "@type": "Product", name: "Item 7" },
      ],
    });
  });
});
