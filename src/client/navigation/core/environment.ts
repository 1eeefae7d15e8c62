import type { DEFERRED_GLOBAL } from "../../../shared/deferred/deferred-markers";

/**
 * What the router needs of the browser, passed in rather than read from globals, so that the
 * router runs against a fake of it in unit tests.
 */
export interface RouterEnvironment {
  /** The address on screen; `assign` and `reload` leave the page (the router's one way out). */
  location: Pick<Location, "href" | "assign" | "reload">;
  history: Pick<History, "state" | "pushState" | "replaceState" | "go" | "scrollRestoration">;
  /** Scroll positions by history entry, across reloads of the tab (reading it may throw). */
  readonly sessionStorage: Pick<Storage, "getItem" | "setItem">;
  fetch: typeof fetch;
  /** The monotonic clock, for how long a prefetched answer stays fresh. */
  clock: Pick<Performance, "now">;
  /** Scrolling, `popstate` and `pagehide`; the deferred values the document's inline scripts push. */
  window: Pick<Window, "scrollY" | "scrollTo" | "addEventListener" | typeof DEFERRED_GLOBAL>;
  /**
   * Hash targets, focus, the `data-navigating` and `data-hydrated` flags, a form posted natively,
   * an error's title, whether the document is still parsing, view transitions where the browser has them;
   * the head's stylesheet links, and the preloads that load the next page's before it shows.
   */
  document: Pick<Document, "documentElement" | "head" | "body" | "getElementById" | "querySelector" | "createElement" | "title" | "readyState" | "addEventListener">;
}

export function browserEnvironment(): RouterEnvironment {
  return {
    location: window.location,
    history: window.history,
    // Read when used: a sandboxed frame throws on access.
    get sessionStorage() {
      return window.sessionStorage;
    },
    // Called on window: the browser throws "Illegal invocation" for fetch detached from it.
    fetch: (input, init) => window.fetch(input, init),
    clock: performance,
    window,
    document,
  };
}
