import { type AppConfig, routeFiles, routeId } from "../../shared/routing/config";
import type { RouteMiddleware, RouteModule, RouteModules, ServerRouteModule } from "../../shared/routing/module";
import { RouteTable } from "../../shared/routing/route-table";
import type { AppSettings } from "./settings";
import { checkMethodHandlers } from "./resource-methods";

/** A route file's two halves, as the server build (or a test) loaded them; a resource route has only the server one. */
export type LoadedRouteFile = { module: RouteModule; server?: ServerRouteModule } | { module?: undefined; server: ServerRouteModule };

/** The app's own server side (src/app/app.server.ts): middleware for every page and resource route. */
export interface AppServerModule {
  middleware?: readonly RouteMiddleware[];
  /** The app's settings (`defineSettings(schema)`), validated at start. */
  settings?: AppSettings<unknown>;
}

/** The app's routes as the server uses them: the table, and every module with its server half. */
export interface AppRoutes {
  table: RouteTable;
  modules: RouteModules;
  serverHalf(id: string): ServerRouteModule | undefined;
  /** Whether the table names a route of this id. */
  has(id: string): boolean;
  /** A server-only route without a component: its handler for the method, or its loader or action, is the answer. */
  isResource(id: string): boolean;
  /** The app's middleware, ahead of every route's. */
  appMiddleware: readonly RouteMiddleware[];
  settings?: AppSettings<unknown>;
}

/**
 * Joins the route table with its loaded files. A file the table names but nobody loaded, a
 * module without a default component, or a server half mixing per-method handlers with
 * load/action, stops start-up with its name rather than failing a page.
 */
export function createAppRoutes(config: AppConfig, files: Record<string, LoadedRouteFile>, app: AppServerModule = {}): AppRoutes {
  const byId = new Map<string, LoadedRouteFile>();
  for (const file of routeFiles(config)) {
    const loaded = files[file];
    if (!loaded) throw new Error(`route table names ${file}, which was not loaded`);
    if (loaded.module && typeof loaded.module.default !== "function") throw new Error(`route module ${file} has no default export component`);
    if (!loaded.module && (file === config.root || file === config.notFound)) throw new Error(`route module ${file} must be a page, with a component`);
    if (loaded.server) checkMethodHandlers(file, loaded.server, !loaded.module);
    byId.set(routeId(file), loaded);
  }
  const get = (id: string): LoadedRouteFile => {
    const loaded = byId.get(id);
    if (!loaded) throw new Error(`no route module ${id}`);
    return loaded;
  };
  return {
    table: new RouteTable(config),
    modules: {
      get: (id) => {
        const { module } = get(id);
        if (!module) throw new Error(`route ${id} is a resource route: it has no component to render`);
        return module;
      },
    },
    serverHalf: (id) => get(id).server,
    has: (id) => byId.has(id),
    isResource: (id) => !get(id).module,
    appMiddleware: app.middleware ?? [],
    settings: app.settings,
  };
}


