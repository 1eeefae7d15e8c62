import { expect, it } from "vitest";
import type { BuildManifest } from "#src/server/assets/manifest";
import { routeAssets } from "#src/server/render/route-assets";
import type { RouteMatch } from "#src/shared/routing/route-table";

const manifest = {
  entry: { script: "/e.js", styles: ["/e.css"], modulePreloads: ["/c.js"] },
  routes: {
    Root: { script: "/root.js", imports: [], styles: ["/root.css"] },
    Admin: { script: "/admin.js", imports: ["/shared.js"], styles: ["/admin.css"] },
    Page: { script: "/page.js", imports: ["/shared.js"], styles: ["/page.css"] },
  },
} as unknown as BuildManifest;

const chain = (...ids: string[]): RouteMatch[] => ids.map((id) => ({ id, params: {} }));

it("gives each chain its own assets, a page file that ends two chains included", () => {
  const assetsFor = routeAssets(manifest);
  const underRoot = assetsFor(chain("Root", "Page"));
  const underAdmin = assetsFor(chain("Root", "Admin", "Page"));
  expect(underRoot).toEqual({ styles: ["/e.css", "/root.css", "/page.css"], preloadHeader: "</c.js>; rel=modulepreload, </root.js>; rel=modulepreload, </page.js>; rel=modulepreload, </shared.js>; rel=modulepreload" });
  expect(underAdmin.styles).toEqual(["/e.css", "/root.css", "/admin.css", "/page.css"]);
  expect(assetsFor(chain("Page"))).toEqual({ styles: ["/e.css", "/page.css"], preloadHeader: "</c.js>; rel=modulepreload, </page.js>; rel=modulepreload, </shared.js>; rel=modulepreload" });
  // Asked again (other params, the same routes): the same answer, worked out once.
  expect(assetsFor([{ id: "Root", params: {} }, { id: "Page", params: { id: "2" } }])).toBe(underRoot);
  expect(assetsFor(chain("Root", "Admin", "Page"))).toBe(underAdmin);
  expect(assetsFor([]).styles).toEqual(["/e.css"]);
});

it("tells apart chains whose ids would join into one key", () => {
  const assetsFor = routeAssets({
    entry: { script: "/e.js", styles: [], modulePreloads: [] },
    routes: { "a|b": { script: "/ab.js", imports: [], styles: ["/ab.css"] }, a: { script: "/a.js", imports: [], styles: [] }, b: { script: "/b.js", imports: [], styles: [] } },
  } as unknown as BuildManifest);
  expect(assetsFor(chain("a|b")).styles).toEqual(["/ab.css"]);
  expect(assetsFor(chain("a", "b")).styles).toEqual([]);
});
