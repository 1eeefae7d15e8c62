import type { AppConfig } from "../../../shared/routing/config";
import type { RouteModule, RouteModules } from "../../../shared/routing/module";
import { RouteTable } from "../../../shared/routing/route-table";
import { CHUNK_RETRY_DELAYS_MS, importWithRetry } from "../../recovery/import-with-retry";

/** The app's routes in the browser: the table, and each route module as a chunk loaded on demand. */
export interface ClientRoutes {
  table: RouteTable;
  /** Loaded modules; `get` is for routes whose `load` has resolved. */
  modules: RouteModules;
  /** Loads the modules of these routes (each chunk once). */
  load(ids: readonly string[]): Promise<void>;
  /** Whether a path is a resource route's (no page: the browser loads it as a document). */
  isResource(pathname: string, diagnostics: boolean): boolean;
  /**
   * Development (Fast Refresh): a route's module as its chunk ran again, read from the next
   * render on; false for a route this table does not have.
   */
  replace(id: string, module: RouteModule): boolean;
  /** Counts replacements, for a store that re-renders on each (useSyncExternalStore). */
  revision(): number;
  subscribe(listener: () => void): () => void;
}

/**
 * Made by the build's `outpost:client-routes` module from the app's route table. A chunk that
 * fails to fetch is tried again after each of `retryDelaysMs`, then rejects with a ChunkLoadError.
 */
export function createClientRoutes(
  config: AppConfig,
  importers: Record<string, () => Promise<RouteModule>>,
  retryDelaysMs: readonly number[] = CHUNK_RETRY_DELAYS_MS,
): ClientRoutes {
  const loaded = new Map<string, RouteModule>();
  const loading = new Map<string, Promise<void>>();
  const listeners = new Set<() => void>();
  let revision = 0;
  const loadOne = (id: string): Promise<void> => {
    let promise = loading.get(id);
    if (!promise) {
      const importer = importers[id];
      if (!importer) return Promise.reject(new Error(`no route module ${id}`));
      promise = importWithRetry(importer, retryDelaysMs).then((module) => {
        loaded.set(id, module);
      });
      // A chunk that failed even after its retries (a deploy removed it, the network dropped) may be tried again later.
      promise.catch(() => loading.delete(id));
      loading.set(id, promise);
    }
    return promise;
  };
  const table = new RouteTable(config);
  return {
    table,
    isResource: (pathname, diagnostics) => {
      const leaf = table.match(pathname, { diagnostics })?.matches.at(-1);
      return leaf !== undefined && !importers[leaf.id];
    },
    modules: {
      get(id) {
        const module = loaded.get(id);
        if (!module) throw new Error(`route module ${id} is not loaded yet`);
        return module;
      },
    },
    load: async (ids) => {
      await Promise.all(ids.map(loadOne));
    },
    replace(id, module) {
      if (!(id in importers)) return false;
      loaded.set(id, module);
      loading.set(id, Promise.resolve());
      revision += 1;
      for (const listener of listeners) listener();
      return true;
    },
    revision: () => revision,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
