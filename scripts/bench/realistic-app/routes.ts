import { defineApp, index, route } from "../../../src/shared/routing/config";

/**
 * The bench-only app of the `realistic` group (scripts/bench/realistic.mjs), built on its own
 * through OUTPOST_APP_DIR so the product's route table never holds it: a root layout, a small
 * home page and the products table, the shape of the e18e framework tracker's SSR benchmark; and
 * one small page twice, with and without reading the session (scripts/bench/session-cost.mjs).
 */
export default defineApp({
  root: "Layout.tsx",
  notFound: "NotFound.tsx",
  routes: [index("Home.tsx"), route("products", "Products.tsx"), route("greeting", "Greeting.tsx"), route("visitor", "Visitor.tsx")],
});
