import { useEffect, useLayoutEffect, useSyncExternalStore } from "react";
import { App } from "../../shared/document/App";
import type { DocumentPayload } from "../../shared/document/payload";
import { RouterContext } from "../../shared/navigation/router-context";
import type { BrowserRouter } from "./browser-router";
import type { ClientRoutes } from "./client-routes";
import { OutletErrorBoundary } from "./OutletErrorBoundary";

interface Props {
  router: BrowserRouter;
  routes: ClientRoutes;
  payload: DocumentPayload;
}

/** The hydrated document, re-rendered with each state the router commits. */
export function RouterRoot({ router, routes, payload }: Props) {
  const { state } = useSyncExternalStore(router.subscribe, router.snapshot, router.snapshot);
  // A route module swapped in development (Fast Refresh): its head and error component are read anew.
  useSyncExternalStore(routes.subscribe, routes.revision, routes.revision);
  // Scroll and the end of the navigation, once the new page is on screen: after each new state.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `state` is the trigger, not an input.
  useLayoutEffect(() => router.rendered(), [router, state]);
  // Hydration has committed: tests and monitoring can tell the page is interactive.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <RouterContext value={router}>
      <App
        state={state}
        modules={routes.modules}
        traceMeta={payload.traceMeta}
        Boundary={OutletErrorBoundary}
        feedbackPage={payload.config.feedbackPage}
        favicon={payload.config.favicon}
      />
    </RouterContext>
  );
}
