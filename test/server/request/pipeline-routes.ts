import type { Context } from "koa";
import { createAppRoutes, type LoadedRouteFile } from "#src/server/routing/app-routes";
import { defineApp, route } from "#src/shared/routing/config";

const Page = () => null;
export const action = () => ({ done: true });
export const load = () => ({ items: [] });
export const GET = () => "got";
export const uploads = { maxFileBytes: 1024, maxFiles: 1 };
export const PUT = () => "put";

const page = (server?: LoadedRouteFile["server"]): LoadedRouteFile => ({ module: { default: Page }, ...(server ? { server } : {}) });

/**
 * A small app for the pipeline's unit tests: a page with an action, one without, a resource
 * route with load and action, and one with a handler per method (GET, PUT).
 */
export function pipelineRoutes() {
  return createAppRoutes(
    defineApp({
      root: "root.tsx",
      notFound: "missing.tsx",
      routes: [route("form", "form.tsx"), route("plain", "plain.tsx"), route("api", "api.server.ts"), route("items", "items.server.ts")],
    }),
    {
      "root.tsx": page(),
      "missing.tsx": page(),
      "form.tsx": page({ action, uploads }),
      "plain.tsx": page(),
      "api.server.ts": { server: { load, action } },
      "items.server.ts": { server: { GET, PUT } },
    },
  );
}

/** What classify reads of a request: its method, path and query (a data request's `_routes` leave it). */
export function requestAt(method: string, url: string): Context {
  const [path, querystring = ""] = url.split("?") as [string, string?];
  return { method, path, querystring } as unknown as Context;
}
