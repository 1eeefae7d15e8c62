import type { RouteMatch } from "../../shared/routing/route-table";
import type { BuildManifest } from "../assets/manifest";

export interface RouteAssets {
  styles: string[];
  /**
   * A `Link` header preloading the entry's chunks and the matched routes' code, so hydration
   * need not wait for a second round trip. A header rather than `<link>` elements, which made
   * every render dearer (docs/decisions/0020-module-preloads-as-link-header.md).
   */
  preloadHeader: string;
}

/** One chain's assets, with the route ids they were worked out for. */
interface KnownChain {
  ids: readonly string[];
  assets: RouteAssets;
}

/**
 * The stylesheets and scripts a matched chain needs, from the build manifest. Stylesheets in a
 * fixed order, each once: the entry's, then each route's from the root layout down to the page
 * (within a route, in import order). A site has few chains, so each is worked out once and then
 * reused, found by its deepest route and checked route by route: no key is built per request.
 */
export function routeAssets(manifest: BuildManifest): (matches: readonly RouteMatch[]) => RouteAssets {
  // A route file may sit in more than one chain: each chain it ends is kept.
  const known = new Map<string, KnownChain[]>();
  return (matches) => {
    const leaf = matches.at(-1)?.id ?? "";
    const chains = known.get(leaf);
    if (chains) for (const chain of chains) if (sameChain(chain.ids, matches)) return chain.assets;
    const assets = assetsOf(manifest, matches);
    const chain = { ids: matches.map((match) => match.id), assets };
    if (chains) chains.push(chain);
    else known.set(leaf, [chain]);
    return assets;
  };
}

function sameChain(ids: readonly string[], matches: readonly RouteMatch[]): boolean {
  if (ids.length !== matches.length) return false;
  for (let i = 0; i < ids.length; i++) if (ids[i] !== matches[i]?.id) return false;
  return true;
}

function assetsOf(manifest: BuildManifest, matches: readonly RouteMatch[]): RouteAssets {
  const styles = new Set(manifest.entry.styles);
  const modulePreloads = new Set(manifest.entry.modulePreloads);
  for (const { id } of matches) {
    const chunk = manifest.routes[id];
    if (!chunk) continue;
    if (chunk.script) modulePreloads.add(chunk.script);
    for (const url of chunk.imports) modulePreloads.add(url);
    for (const url of chunk.styles) styles.add(url);
  }
  const preloadHeader = [...modulePreloads].map((url) => `<${url}>; rel=modulepreload`).join(", ");
  return { styles: [...styles], preloadHeader };
}
