import type { LoaderContext } from "#outpost";
import { visitorName } from "./GuardedLayout.server";

/** Reads what the layout's middleware set; it throws should it ever run for a visitor without a name. */
export function load({ values }: LoaderContext) {
  if (!values.has(visitorName)) throw new Error("the guarded page's loader ran without the layout's middleware letting it");
  return { name: values.get(visitorName) };
}
