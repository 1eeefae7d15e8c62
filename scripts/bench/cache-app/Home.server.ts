import type { Prerender } from "../../../src/shared/routing/module";

/** Built once by `node scripts/build.mjs`: the group's prerendered page. */
export const prerender: Prerender<"/"> = true;
