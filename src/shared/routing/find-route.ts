import { matchPath, type Params } from "./match";
import type { RouteDefinition } from "./route";

export interface RouteMatch {
  route: RouteDefinition;
  params: Params;
}

export function findRoute(
  routes: readonly RouteDefinition[],
  pathname: string,
  { diagnostics }: { diagnostics: boolean },
): RouteMatch | null {
  for (const route of routes) {
    if (route.diagnostic && !diagnostics) continue;
    const params = matchPath(route.path, pathname);
    if (params) return { route, params };
  }
  return null;
}

export function routeByPattern(
  routes: readonly RouteDefinition[],
  pattern: string,
): RouteDefinition | undefined {
  return routes.find((route) => route.path === pattern);
}
