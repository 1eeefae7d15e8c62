import { settings } from "../app.server";

export function load() {
  return { renderedAt: new Date().toISOString(), greeting: settings.get().GREETING };
}
