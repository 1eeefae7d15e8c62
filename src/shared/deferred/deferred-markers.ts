import type { RouteError } from "../routing/module";

/** The global the server's inline scripts push a page's deferred values to, one encoded line each. */
export const DEFERRED_GLOBAL = "__OUTPOST_DEFERRED__";

/** The media type of a data request's answer whose deferred values stream after the awaited part. */
export const DEFERRED_DATA_TYPE = "text/x-outpost-deferred";

/** What a deferred value's rejection becomes: the route error the page may show, never the server's error itself. */
export class DeferredError extends Error {
  readonly routeError: RouteError;

  constructor(routeError: RouteError) {
    super(routeError.message ?? "a deferred value could not be loaded");
    this.name = "DeferredError";
    this.routeError = routeError;
  }
}

/**
 * The digest the server gives React for a deferred value's failure read with `use()`: the browser
 * then knows the boundary it renders again failed on a value the server has already reported.
 */
export const DEFERRED_DIGEST = "outpost-deferred";

/** Whether the browser should leave an error unreported: a deferred value's, reported by the server. */
export const reportedByServer = (error: unknown): boolean =>
  error instanceof DeferredError || (error as { digest?: unknown } | null)?.digest === DEFERRED_DIGEST;
