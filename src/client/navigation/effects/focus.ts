import { fragmentId } from "../../../shared/navigation/navigation-target";
import type { RouterEnvironment } from "../core/environment";
import type { BrowserRouterState } from "../core/router-store";
import { landings, type RouterEffect } from "./router-effect";

/**
 * After a client navigation has rendered, focus goes where a full page load would leave a
 * screen reader: the `#hash` target, else the page's main heading, else its `<main>`. Focusing
 * the heading makes assistive technology read the new page's name; the link clicked may be gone.
 */
export function focusEffect(document: RouterEnvironment["document"], initial: BrowserRouterState): RouterEffect {
  const landed = landings(initial);
  return {
    rendered(state) {
      if (!landed(state)) return;
      const { hash } = state.location;
      const target =
        (hash ? document.getElementById(fragmentId(hash)) : null) ??
        document.querySelector<HTMLElement>("main h1") ??
        document.querySelector<HTMLElement>("h1") ??
        document.querySelector<HTMLElement>("main");
      if (!target) return;
      // A heading or landmark is not focusable by default: -1 lets script focus it, not the Tab key.
      if (target.tabIndex < 0 && !target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
      // Scroll is restored separately (back/forward keeps the visitor's position).
      target.focus({ preventScroll: true });
    },
  };
}
