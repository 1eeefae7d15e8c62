import type { RouterEnvironment } from "../core/environment";
import type { RouterEffect } from "./router-effect";

/** `<html data-navigating="true">` while a navigation or a submission is pending, for styles and tests. */
export function navigatingFlag(document: RouterEnvironment["document"]): RouterEffect {
  const { dataset } = document.documentElement;
  return {
    changed(next, previous) {
      if (next.navigation.state !== "idle") dataset.navigating = "true";
      // Ended with nothing new to render (a refused redirect, a form the browser submits itself).
      else if (previous.navigation.state !== "idle" && next.page === previous.page) delete dataset.navigating;
    },
    // Once the new page is on screen.
    rendered(state) {
      if (state.navigation.state === "idle") delete dataset.navigating;
    },
  };
}
