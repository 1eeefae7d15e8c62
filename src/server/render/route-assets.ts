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

/**
 * The stylesheets and scripts a matched chain needs, from the build manifest. Stylesheets in a
 * fixed order, each once: the entry's, then each route's from the root layout down to the page
 * (within a route, in import order). A site has few chains, so each is worked out once and then reused.
 */
export function routeAssets(manifest: BuildManifest): (matches: readonly RouteMatch[]) => RouteAssets {
  const known = new Map<string, RouteAssets>();
  return (matches) => {
    const key = matches.map((match) => match.id).join("|");
    let assets = known.get(key);
    if (!assets) {
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
      assets = { styles: [...styles], preloadHeader };
      known.set(key, assets);
    }
    return assets;
  };
}
