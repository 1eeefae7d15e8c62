import { existsSync } from "node:fs";
import path from "node:path";
import { withDiagnostics } from "#src/diagnostics/routes";
import type { AppConfig, RouteConfig } from "#src/shared/routing/config";
import { type AppRoutes, type AppServerModule, createAppRoutes, type LoadedRouteFile } from "#src/server/routing/app-routes";
// @ts-expect-error: a build script in plain JavaScript, without types
import { routeModules } from "../../scripts/build/app-routes.mjs";
import { FIXTURE_APP, ROOT } from "./paths";

interface RouteModuleFile {
  file: string;
  absolute: string;
  resource: boolean;
  serverHalf: string | undefined;
}

export interface ExtraRoutes {
  routes: RouteConfig[];
  files: Record<string, LoadedRouteFile>;
  /** The app's server module instead of its own app.server.ts. */
  app?: AppServerModule;
}

/**
 * An app's routes as the server build assembles them (the diagnostics mounted, the same file and
 * server-half rules: scripts/build/app-routes.mjs), loaded from the sources, plus routes only
 * tests use, added under the root layout. The platform's tests run on the fixture app
 * (test/fixtures/app); the product's tests (test/app/) pass `src/app`.
 */
export async function loadAppRoutes(extra: ExtraRoutes = { routes: [], files: {} }, appDir: string = FIXTURE_APP): Promise<AppRoutes> {
  const appConfig = ((await import(path.join(ROOT, appDir, "routes.ts"))) as { default: AppConfig }).default;
  const mounted = withDiagnostics(appConfig);
  const config: AppConfig = { ...mounted, routes: [...mounted.routes, ...extra.routes] };
  const files: Record<string, LoadedRouteFile> = { ...extra.files };
  for (const { file, absolute, resource, serverHalf } of routeModules(ROOT, appDir, mounted) as RouteModuleFile[]) {
    if (resource) files[file] = { server: await import(absolute) };
    else files[file] = { module: await import(absolute), ...(serverHalf ? { server: await import(serverHalf) } : {}) };
  }
  return createAppRoutes(config, files, extra.app ?? (await appServer(appDir)));
}

async function appServer(appDir: string): Promise<AppServerModule> {
  const file = path.join(ROOT, appDir, "app.server.ts");
  return existsSync(file) ? ((await import(file)) as AppServerModule) : {};
}
