import type { RouterEnvironment } from "./environment";

// A stylesheet neither loaded nor failed by then (a stalled server) no longer holds the page back:
// it shows, and the browser goes on loading the sheet React links.
export const STYLESHEET_WAIT_MS = 5000;

/**
 * Fetches the stylesheets of `styles` the head does not link yet (nor, for a prefetch, fetch
 * already), each with a `<link rel=preload|prefetch as=style>` removed once it has loaded or
 * failed; resolves then, or after the wait at most. The router commits a page after its preloads:
 * a preloaded stylesheet is in the memory cache, and Chromium applies a cached stylesheet
 * synchronously as React inserts its `<link rel=stylesheet>`, so the first frame with the new
 * content is styled (test/e2e/route-stylesheets.test.ts). A prefetch fills the HTTP cache, at low
 * priority and with no console warning when no click follows, unlike a preload.
 */
export function fetchStylesheets(document: RouterEnvironment["document"], styles: readonly string[], rel: "preload" | "prefetch"): Promise<unknown> {
  const { head } = document;
  // Only links have these in a head.
  const selector = rel === "preload" ? "[rel=stylesheet]" : "[rel=stylesheet],[as=style]";
  const linked = Array.from(head.querySelectorAll(selector), (link) => link.getAttribute("href"));
  return Promise.all(
    styles
      .filter((href) => !linked.includes(href))
      .map((href) => {
        const link = Object.assign(document.createElement("link"), { rel, as: "style", href });
        const fetched = new Promise((resolve) => {
          link.onload = link.onerror = resolve;
          setTimeout(resolve, STYLESHEET_WAIT_MS);
        });
        head.append(link);
        return fetched.then(() => link.remove());
      }),
  );
}
