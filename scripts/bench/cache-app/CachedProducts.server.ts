import type { PageCachePolicy } from "../../../src/shared/routing/module";

export { load } from "../realistic-app/Products.server";

/** Kept for an hour, longer than any run, so every request after the first is a fresh hit. */
export const cache: PageCachePolicy = { maxAge: 3600 };
