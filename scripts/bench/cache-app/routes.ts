import { defineApp, index, route } from "../../../src/shared/routing/config";

/**
 * The bench-only app of the `cache` group (scripts/bench/cache.mjs), built on its own through
 * OUTPOST_APP_DIR: the realistic app's layout and products page, once rendered for each request
 * and once kept by the page cache, and its home page prerendered at build. Each module here only
 * re-exports the realistic app's, so both apps serve the same bytes.
 */
export default defineApp({
  root: "Layout.tsx",
  notFound: "NotFound.tsx",
  routes: [index("Home.tsx"), route("products", "Products.tsx"), route("products-cached", "CachedProducts.tsx")],
});
