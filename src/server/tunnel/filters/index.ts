import { fromBrowserExtension } from "./browser-extensions";
import { fromLocalhost } from "./localhost";
import { fromWebCrawler } from "./web-crawlers";

/** The inbound filters SENTRY_TUNNEL_FILTERS names, as Relay names them. */
export const TUNNEL_FILTERS = ["browser-extensions", "localhost", "web-crawlers"] as const;
export type TunnelFilter = (typeof TUNNEL_FILTERS)[number];

const TESTS: Record<TunnelFilter, (event: Record<string, unknown>) => boolean> = {
  "browser-extensions": fromBrowserExtension,
  localhost: fromLocalhost,
  "web-crawlers": fromWebCrawler,
};

/** The first of `filters` that drops this event (a parsed `event` or `transaction` payload), or undefined when it passes. */
export function filterEvent(filters: readonly TunnelFilter[], event: Record<string, unknown>): TunnelFilter | undefined {
  return filters.find((filter) => TESTS[filter](event));
}
