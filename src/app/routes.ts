import { defineApp, index, route } from "#outpost";

/**
 * The app's route table: every page, as module files relative to this folder. A module's
 * loader lives beside it in `X.server.ts`, which only the server ever loads; a `.server.ts` file
 * named here itself is a resource route (JSON, files, webhooks: no page).
 */
export default defineApp({
  root: "root/RootLayout.tsx",
  notFound: "not-found/NotFoundPage.tsx",
  // The platform's last-resort error page offers it too ("Tell us what happened").
  feedbackPage: "/feedback",
  routes: [
    index("home/HomePage.tsx"),
    route("feedback", "feedback/FeedbackPage.tsx"),
    route(
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
        route("fetchers", "diagnostics/FetchersPage.tsx"),
        route("revalidation", "diagnostics/revalidation/RevalidationLayout.tsx", [
          route("first", "diagnostics/revalidation/FirstChild.tsx"),
          route("second", "diagnostics/revalidation/SecondChild.tsx"),
        ]),
        route("deferred", "diagnostics/DeferredPage.tsx"),
        route("limited", "diagnostics/LimitedPage.tsx"),
        // A resource route: a server-only module, answering JSON.
        route("api/echo", "diagnostics/api/echo.server.ts"),
      ],
      { diagnostic: true },
    ),
  ],
});
