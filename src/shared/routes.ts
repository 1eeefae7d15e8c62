import { ClientErrorPage } from "./pages/diagnostics/ClientErrorPage";
import { RedirectPage, redirectLoader } from "./pages/diagnostics/RedirectPage";
import { RenderErrorPage } from "./pages/diagnostics/RenderErrorPage";
import { ServerErrorPage, serverErrorLoader } from "./pages/diagnostics/ServerErrorPage";
import { type HomeData, HomePage } from "./pages/HomePage";
import { defineRoute, type RouteDefinition } from "./routing/route";

/** The one route table: the server matches and loads from it, the browser hydrates from it. */
export const routes: readonly RouteDefinition[] = [
  defineRoute<HomeData>({
    path: "/",
    title: "Outpost",
    component: HomePage,
    load: () => ({ renderedAt: new Date().toISOString() }),
  }),
  defineRoute({
    path: "/diagnostics/server-error",
    title: "Server error diagnostic",
    component: ServerErrorPage,
    load: serverErrorLoader,
    diagnostic: true,
  }),
  defineRoute({
    path: "/diagnostics/render-error",
    title: "Render error diagnostic",
    component: RenderErrorPage,
    diagnostic: true,
  }),
  defineRoute({
    path: "/diagnostics/client-error",
    title: "Client error diagnostic",
    component: ClientErrorPage,
    diagnostic: true,
  }),
  defineRoute({
    path: "/diagnostics/redirect",
    title: "Redirect diagnostic",
    component: RedirectPage,
    load: redirectLoader,
    diagnostic: true,
  }),
];
