import { emitNavigation } from "../core/navigation-events";
import type { BrowserRouterState } from "../core/router-store";
import { landings, type RouterEffect } from "./router-effect";

/** Navigation start (as the browser matched it) and end (as the server answered), for monitoring. */
export function eventsEffect(initial: BrowserRouterState): RouterEffect {
  const landed = landings(initial);
  return {
    changed(next, previous) {
      if (next.started && next.started !== previous.started) emitNavigation("start", next.started);
    },
    rendered(state) {
      if (landed(state)) emitNavigation("end", { pattern: state.page.pattern });
    },
  };
}
