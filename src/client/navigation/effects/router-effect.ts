import type { BrowserRouterState } from "../core/router-store";

/**
 * What the browser does as the router's state changes (scroll, focus, the navigating flag,
 * events): `changed` on every change, `rendered` once React has committed the state on screen.
 */
export interface RouterEffect {
  changed?(next: BrowserRouterState, previous: BrowserRouterState): void;
  rendered?(state: BrowserRouterState): void;
}

/**
 * After each render: whether a navigation landed since the last one, a new location with a new
 * page (not a revalidation, which keeps the location, nor a fragment reached by back or forward).
 */
export function landings(initial: BrowserRouterState): (state: BrowserRouterState) => boolean {
  let { location, page } = initial;
  return (state) => {
    const landed = state.location !== location && state.page !== page;
    ({ location, page } = state);
    return landed;
  };
}
