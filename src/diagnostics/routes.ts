import { type AppConfig, index, route } from "../shared/routing/config";

/**
 * The platform's diagnostics pages: every kind of page, error, form and limit the platform
 * serves, for its tests and for checking a deployment. Files are named from src/ (`folder`), so
 * their route ids read `diagnostics/…`. Add a page here: a route below, its module in this folder.
 */
export const diagnosticsRoutes = {
  ...route(
    "diagnostics",
    "diagnostics/DiagnosticsLayout.tsx",
    [
      index("diagnostics/DiagnosticsIndex.tsx"),
      route("server-error", "diagnostics/ServerErrorPage.tsx"),
      route("render-error", "diagnostics/RenderErrorPage.tsx"),
      route("client-error", "diagnostics/ClientErrorPage.tsx"),
      route("redirect", "diagnostics/RedirectPage.tsx"),
      route("form", "diagnostics/FormPage.tsx"),
      route("session", "diagnostics/SessionPage.tsx"),
      route("forbidden", "diagnostics/ForbiddenPage.tsx"),
      route("guarded", "diagnostics/guarded/GuardedLayout.tsx", [route("inner", "diagnostics/guarded/GuardedInner.tsx")]),
      route("cached", "diagnostics/CachedPage.tsx"),
      route("page-cache", "diagnostics/PageCachePage.tsx"),
      route("prerendered", "diagnostics/PrerenderedPage.tsx"),
      route("fetchers", "diagnostics/FetchersPage.tsx"),
      route("revalidation", "diagnostics/revalidation/RevalidationLayout.tsx", [
        route("first", "diagnostics/revalidation/FirstChild.tsx"),
        route("second", "diagnostics/revalidation/SecondChild.tsx"),
      ]),
      route("deferred", "diagnostics/DeferredPage.tsx"),
      route("limited", "diagnostics/LimitedPage.tsx"),
      route("search", "diagnostics/SearchPage.tsx"),
      route("parent", "diagnostics/parent/ParentLayout.tsx", [route("child", "diagnostics/parent/ParentChild.tsx")]),
      route("toolkit", "diagnostics/ToolkitPage.tsx"),
      route("events", "diagnostics/EventsPage.tsx"),
      // A resource route answering with an event stream (channel `diagnostics`).
      route("events/stream", "diagnostics/EventsStream.server.ts"),
      // A resource route: a server-only module, answering JSON.
      route("api/echo", "diagnostics/api/echo.server.ts"),
      route("api/items/:id", "diagnostics/api/item.server.ts"),
    ],
    { diagnostic: true },
  ),
  folder: "src",
};

/**
 * An app's route table with the diagnostics mounted at /diagnostics, inside its root layout: the
 * table both builds (and the platform's tests) serve. Their routes answer only with
 * ENABLE_DIAGNOSTIC_ROUTES=true; otherwise /diagnostics is the app's not-found page.
 */
export function withDiagnostics(app: AppConfig): AppConfig {
  return { ...app, routes: [...app.routes, diagnosticsRoutes] };
}
