import type { Prerender } from "#outpost";

/** Rendered once by the build: every response of one build shows the same time. */
export const prerender: Prerender<"/diagnostics/prerendered"> = true;

export function load() {
  return { builtAt: new Date().toISOString() };
}
