import { defineApp, index, route } from "../shared/routing/config";

/**
 * The app's route table: every page, as module files relative to this folder. A module's
 * loader lives beside it in `X.server.ts`, which only the server ever loads.
 */
export default defineApp({
  root: "root/RootLayout.tsx",
  notFound: "not-found/NotFoundPage.tsx",
  routes: [
    index("home/HomePage.tsx"),
    route(
      "diagnostics",
      "diagnostics/DiagnosticsLayout.tsx",
      [
        index("diagnostics/DiagnosticsIndex.tsx"),
        route("server-error", "diagnostics/ServerErrorPage.tsx"),
        route("render-error", "diagnostics/RenderErrorPage.tsx"),
        route("client-error", "diagnostics/ClientErrorPage.tsx"),
        route("redirect", "diagnostics/RedirectPage.tsx"),
      ],
      { diagnostic: true },
    ),
  ],
});
