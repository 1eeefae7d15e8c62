import type { RouterEnvironment } from "./environment";

type RouterDocument = RouterEnvironment["document"];

// A stylesheet neither loaded nor failed by then (a stalled server) no longer holds the page back:
// it shows, and the browser goes on loading the sheet React links.
export const STYLESHEET_WAIT_MS = 5000;

/** The hrefs of `styles` that no link of the head matching `selector` has. */
function unlinked(document: RouterDocument, styles: readonly string[], selector: string): string[] {
  const linked = new Set(Array.from(document.head.querySelectorAll(selector), (link) => link.getAttribute("href")));
  return styles.filter((href) => !linked.has(href));
}

/** Fetches a stylesheet with a `<link rel>` of the head, removed again once it has loaded or failed, or the wait is over. */
function fetchStylesheet(document: RouterDocument, href: string, rel: "preload" | "prefetch"): Promise<void> {
  return new Promise((resolve) => {
    const link = document.createElement("link");
    const done = () => {
      clearTimeout(timer);
      link.remove();
      resolve();
    };
    const timer = setTimeout(done, STYLESHEET_WAIT_MS);
    link.onload = link.onerror = done;
    link.rel = rel;
    link.as = "style";
    link.href = href;
    document.head.append(link);
  });
}

/**
 * Resolves once the page's stylesheets the document does not link yet have loaded (or failed):
 * the page is committed after it. A preloaded stylesheet is in the browser's memory cache, and
 * Chromium applies a cached stylesheet synchronously as React inserts its `<link rel=stylesheet>`,
 * so the first frame with the new content is styled (test/e2e/route-stylesheets.test.ts); a
 * stylesheet link with a non-matching media would do as well, but would need removing after the commit.
 */
export function loadStylesheets(document: RouterDocument, styles: readonly string[]): Promise<unknown> {
  return Promise.all(unlinked(document, styles, 'link[rel="stylesheet"]').map((href) => fetchStylesheet(document, href, "preload")));
}

/** A page's stylesheets into the HTTP cache at low priority, ahead of a likely click (none already linked or on the way). */
export function prefetchStylesheets(document: RouterDocument, styles: readonly string[]): void {
  for (const href of unlinked(document, styles, 'link[rel="stylesheet"],link[as="style"]')) void fetchStylesheet(document, href, "prefetch");
}
