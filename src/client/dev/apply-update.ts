import type { HotUpdate } from "../../shared/dev/hot-protocol";
import type { RouteModule } from "../../shared/routing/module";
import type { ClientRoutes } from "../navigation/core/client-routes";
import { revalidate } from "../navigation/revalidate";
import { performReactRefresh } from "./refresh-runtime";

type ClientPart = Pick<HotUpdate, "modules" | "styles" | "reload" | "reasons">;

/**
 * Applies a client part in place: chunks are imported again, which registers their components
 * anew, and Fast Refresh re-renders them keeping their state; a route module's new exports
 * (head, error component) replace the old in the route table, which re-renders the page with
 * them; stylesheets are pointed at their new files. Rejects with what a chunk threw.
 */
export async function applyClientPart({ modules, styles, reload, reasons }: ClientPart, routes: ClientRoutes) {
  if (reload) {
    console.info(`[dev] reloading: ${reasons.join("; ")}`);
    return window.location.reload();
  }
  await Promise.all([
    ...styles.map(({ from, to }) => swapStylesheet(from, to)),
    Promise.all(modules.map(async ({ url, route }) => ({ route, module: await importChunk(url) }))).then((imported) => {
      if (imported.length === 0) return;
      performReactRefresh();
      for (const { route, module } of imported) if (route) routes.replace(route, module as RouteModule);
    }),
  ]);
}

let imports = 0;

/**
 * Imports a chunk so that it runs again: under a query of its own (the server ignores it), as a
 * URL the page has imported before would give the module it already has (a change undone).
 * Should the server be replaced while the chunk is fetched (the dev script waits for pages only
 * so long), it is fetched again from the new one; what the chunk throws is not retried.
 */
async function importChunk(url: string): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await import(`${url}?hot=${++imports}`);
    } catch (error) {
      const unreachable = error instanceof TypeError && /fetch/i.test(error.message);
      if (!unreachable || attempt === 10) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** Loader data changed on the server: the page re-fetches it and re-renders, without a reload. */
export function applyServerPart(updates: HotUpdate[]): Promise<void> {
  return updates.some((update) => update.revalidate) ? revalidate() : Promise.resolve();
}

/**
 * Changes the link's href in place: the browser keeps the old sheet applied until the new one
 * has loaded (no flash), and React, which rendered the link, sees no node replaced.
 */
function swapStylesheet(from: string, to: string): Promise<void> {
  const link = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].find(
    (candidate) => new URL(candidate.href).pathname === from,
  );
  if (!link) return Promise.resolve();
  return new Promise((resolve) => {
    link.addEventListener("load", () => resolve(), { once: true });
    link.addEventListener("error", () => resolve(), { once: true });
    setTimeout(resolve, 2_000); // should neither come, later updates must not wait for ever
    link.href = to;
  });
}
