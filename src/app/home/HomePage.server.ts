import type { LoaderContext } from "#outpost";
import { settings } from "../app.server";

export function load(context: LoaderContext) {
  return { renderedAt: new Date().toISOString(), greeting: settings.get(context).GREETING };
}
