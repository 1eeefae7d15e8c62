import { navigationTarget } from "../../shared/navigation/navigation-target";
import type { MatchedRoutes } from "../../shared/routing/route-table";
import { dataCause, routesToLoad } from "./should-revalidate";
import { currentPath, type HistoryMode, landingCode, pageAssets, type RouterCore } from "./router-core";

// An answer fetched before an action answered is not fresh enough once it did: the generation is part of the key.
export const prefetchKey = (url: URL, routes: readonly string[] | undefined, generation: number) =>
  `${url.pathname}${url.search}#${routes?.join(",") ?? "*"}@${generation}`;

/** Starts loading the code of the routes the browser expects, and the code that shows a page, alongside the data request. */
export function preloadCode({ routes, diagnostics }: RouterCore, url: URL): MatchedRoutes | null {
  landingCode().catch(() => {});
  const matched = routes.table.match(url.pathname, { diagnostics });
  if (matched) routes.load(matched.matches.map((match) => match.id)).catch(() => {});
  return matched;
}

/** The routes whose loaders a request for `url` needs; undefined for all of them. */
export function wanted(core: RouterCore, url: URL, matched: MatchedRoutes | null, mode: HistoryMode): string[] | undefined {
  if (!matched) return undefined;
  const cause = dataCause(core.store.state, mode === "none");
  const currentUrl = new URL(currentPath(core), url);
  return routesToLoad({ current: core.store.state.page, currentUrl, next: matched.matches, nextUrl: url, cause, modules: core.routes.modules });
}

/** Fetches a page's data, code and stylesheets ahead of a likely click; the click takes the answer (once). */
export function prefetch(core: RouterCore, to: string): void {
  const target = navigationTarget(to, core.env.location.href);
  if (target.kind !== "client") return;
  const { url } = target;
  if (core.routes.isResource(url.pathname, core.diagnostics)) return;
  const routes = wanted(core, url, preloadCode(core, url), "push");
  const key = prefetchKey(url, routes, core.store.state.invalidated);
  if (core.prefetched.has(key)) return;
  const answer = core.data.load(url, undefined, routes);
  core.prefetched.set(key, answer);
  answer.then((value) => (value.kind === "state" ? pageAssets(core, value.state, "prefetch") : undefined)).catch(() => {});
}
