import type { RouterEnvironment } from "../core/environment";
import type { BrowserRouterState } from "../core/router-store";
import { ScrollPositions } from "./scroll-positions";
import type { RouterEffect } from "./router-effect";

/** The position of the entry left is kept as the location changes; the new one's is set once it rendered. */
export function scrollEffect(env: RouterEnvironment, initial: BrowserRouterState): RouterEffect {
  const positions = new ScrollPositions(env);
  let shown = initial.location;
  return {
    changed(next, previous) {
      if (next.location.key !== previous.location.key) positions.save(previous.location.key);
    },
    rendered({ location, historyAction, preventScrollReset }) {
      // A revalidation keeps the location: the scroll stays where the visitor is.
      if (location === shown) return;
      shown = location;
      // navigate(…, { preventScrollReset }) (a tab, a filter): the visitor stays where they were.
      if (preventScrollReset && historyAction !== "pop") return;
      positions.restore(historyAction, location.key, location.hash);
    },
  };
}
