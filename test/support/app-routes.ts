import appConfig from "#src/app/routes";
import { withDiagnostics } from "#src/diagnostics/routes";
import type { AppConfig, RouteConfig } from "#src/shared/routing/config";
import { type AppRoutes, type AppServerModule, createAppRoutes, type LoadedRouteFile } from "#src/server/routing/app-routes";
// @ts-expect-error: a build script in plain JavaScript, without types
import { routeModules } from "../../scripts/build/app-routes.mjs";
import { ROOT } from "./paths";

interface RouteModuleFile {
  file: string;
  absolute: string;
  resource: boolean;
  serverHalf: string | undefined;
}

/**
 * The app's routes as the server build assembles them (the same file and server-half rules,
 * scripts/build/app-routes.mjs), loaded from the sources, plus routes only tests use, added
 * under the root layout.
 */
export async function loadAppRoutes(
  extra: { routes: RouteConfig[]; files: Record<string, LoadedRouteFile>; app?: AppServerModule } = { routes: [], files: {} },
): Promise<AppRoutes> {
  const mounted = withDiagnostics(appConfig);
  const config: AppConfig = { ...mounted, routes: [...mounted.routes, ...extra.routes] };
  const files: Record<string, LoadedRouteFile> = { ...extra.files };
  for (const { file, absolute, resource, serverHalf } of routeModules(ROOT, "src/app", mounted) as RouteModuleFile[]) {
    if (resource) files[file] = { server: await import(absolute) };
    else files[file] = { module: await import(absolute), ...(serverHalf ? { server: await import(serverHalf) } : {}) };
  }
  return createAppRoutes(config, files, extra.app ?? (await import("#src/app/app.server")));
}
