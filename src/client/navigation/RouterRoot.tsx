import { useEffect, useLayoutEffect, useState, useSyncExternalStore } from "react";
import { App } from "../../shared/document/App";
import type { DocumentPayload } from "../../shared/document/payload";
import { servedLocation } from "../../shared/navigation/served-location";
import { RouterContext } from "../../shared/navigation/router-context";
import type { BrowserRouter } from "./browser-router";
import type { ClientRoutes } from "./core/client-routes";
import { OutletErrorBoundary, TitleDocument } from "./OutletErrorBoundary";

interface Props {
  router: BrowserRouter;
  routes: ClientRoutes;
  payload: DocumentPayload;
}

/** The hydrated document, re-rendered with each page the router commits (not for fetchers or pending navigations). */
export function RouterRoot({ router, routes, payload }: Props) {
  const readPage = () => router.state().page;
  const readLocation = () => router.state().location;
  // The server rendered this same page: the same values while hydrating.
  const page = useSyncExternalStore(router.subscribe, readPage, readPage);
  const location = useSyncExternalStore(router.subscribe, readLocation, readLocation);
  // What the server saw of the address this document was rendered for: useLocation() while hydrating.
  const [served] = useState(() => servedLocation(location.pathname, location.search));
  // A route module swapped in development (Fast Refresh): its head and error component are read anew.
  useSyncExternalStore(routes.subscribe, routes.revision, routes.revision);
  // Scroll, focus and the end of the navigation, once the new page is on screen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `page` and `location` are the trigger, not inputs.
  useLayoutEffect(() => router.rendered(), [router, page, location]);
  // Hydration has committed: tests and monitoring can tell the page is interactive.
  useEffect(() => {
    router.env.document.documentElement.dataset.hydrated = "true";
  }, [router]);
  return (
    <RouterContext value={router}>
      <TitleDocument value={router.env.document}>
        <App
          state={page}
          modules={routes.modules}
          table={routes.table}
          traceMeta={payload.traceMeta}
          Boundary={OutletErrorBoundary}
          feedbackPage={payload.config.feedbackPage}
          favicon={payload.config.favicon}
          served={served}
        />
      </TitleDocument>
    </RouterContext>
  );
}
