import { type AppConfig, routeFiles, routeId } from "../../shared/routing/config";
import type { RouteModule, RouteModules, ServerRouteModule } from "../../shared/routing/module";
import { RouteTable } from "../../shared/routing/route-table";

/** A route file's two halves, as the server build (or a test) loaded them. */
export interface LoadedRouteFile {
  module: RouteModule;
  server?: ServerRouteModule;
}

/** The app's routes as the server uses them: the table, and every module with its server half. */
export interface AppRoutes {
  table: RouteTable;
  modules: RouteModules;
  serverHalf(id: string): ServerRouteModule | undefined;
}

/**
 * Joins the route table with its loaded files. A file the table names but nobody loaded, or a
 * module without a default component, stops start-up with its name rather than failing a page.
 */
export function createAppRoutes(config: AppConfig, files: Record<string, LoadedRouteFile>): AppRoutes {
  const byId = new Map<string, LoadedRouteFile>();
  for (const file of routeFiles(config)) {
    const loaded = files[file];
    if (!loaded) throw new Error(`route table names ${file}, which was not loaded`);
    if (typeof loaded.module.default !== "function") throw new Error(`route module ${file} has no default export component`);
    byId.set(routeId(file), loaded);
  }
  const get = (id: string): LoadedRouteFile => {
    const loaded = byId.get(id);
    if (!loaded) throw new Error(`no route module ${id}`);
    return loaded;
  };
  return {
    table: new RouteTable(config),
    modules: { get: (id) => get(id).module },
    serverHalf: (id) => get(id).server,
  };
}
