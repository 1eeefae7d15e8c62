import { defineApp, index, route } from "#outpost";

/**
 * The app's route table: every page, as module files relative to this folder. A module's
 * loader lives beside it in `X.server.ts`, which only the server ever loads; a `.server.ts` file
 * named here itself is a resource route (JSON, files, webhooks: no page). The platform mounts its
 * diagnostics at /diagnostics (src/diagnostics/routes.ts) when ENABLE_DIAGNOSTIC_ROUTES=true.
 */
const app = defineApp({
  root: "root/RootLayout.tsx",
  notFound: "not-found/NotFoundPage.tsx",
  // The platform's last-resort error page offers it too ("Tell us what happened").
  feedbackPage: "/feedback",
  routes: [
    index("home/HomePage.tsx"),
    route("feedback", "feedback/FeedbackPage.tsx"),
  ],
});

export default app;

// The table's patterns, known to the compiler: typed params, `href()` and the route types.
declare module "#outpost" {
  interface Register {
    app: typeof app;
  }
}
