import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const DIST = path.join(ROOT, "dist");
/** The fixture app's sources and build (relative to ROOT, as the build script takes them). */
export const FIXTURE_APP = "test/fixtures/app";
export const FIXTURE_DIST = "dist/fixture";
/** The product's sources and build, for the product's own tests (test/app/). */
export const PRODUCT_APP = "src/app";
