import { existsSync } from "node:fs";
import path from "node:path";
import appConfig from "../../src/app/routes";
import { type AppConfig, type RouteConfig, routeFiles } from "../../src/shared/routing/config";
import { type AppRoutes, createAppRoutes, type LoadedRouteFile } from "../../src/server/routing/app-routes";
import { ROOT } from "./paths";

const APP_DIR = path.join(ROOT, "src/app");

/**
 * The app's routes as the server build assembles them (scripts/build/app-routes.mjs), loaded
 * from the sources, plus routes only tests use, added under the root layout.
 */
export async function loadAppRoutes(
  extra: { routes: RouteConfig[]; files: Record<string, LoadedRouteFile> } = { routes: [], files: {} },
): Promise<AppRoutes> {
  const config: AppConfig = { ...appConfig, routes: [...appConfig.routes, ...extra.routes] };
  const files: Record<string, LoadedRouteFile> = { ...extra.files };
  for (const file of routeFiles(appConfig)) {
    const absolute = path.join(APP_DIR, file);
    const serverHalf = absolute.replace(/\.tsx?$/, ".server.ts");
    files[file] = {
      module: await import(absolute),
      ...(existsSync(serverHalf) ? { server: await import(serverHalf) } : {}),
    };
  }
  return createAppRoutes(config, files);
}
