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

const ERROR_TAG = "OutpostDeferredError";
const PLAIN_TAG = "OutpostPlain";

/** Any error becomes a DeferredError's route error, so no server error's text reaches the page unless chosen. */
export const encodeErrors = (value: unknown): [string, RouteError] | undefined =>
  value instanceof Error ? [ERROR_TAG, value instanceof DeferredError ? value.routeError : {}] : undefined;

/**
 * What turbo-stream cannot encode is sent as JSON would send it: a class instance as a plain
 * object of its own fields, a function as nothing.
 */
export const encodeAsJson = (value: unknown): [string, ...unknown[]] | undefined =>
  typeof value === "object" && value !== null ? [PLAIN_TAG, { ...value }] : typeof value === "function" ? [PLAIN_TAG] : undefined;

export const decodeDeferred = (type: string, value?: unknown): { value: unknown } | undefined => {
  if (type === ERROR_TAG) return { value: new DeferredError(value as RouteError) };
  return type === PLAIN_TAG ? { value } : undefined;
};

// An object first: most loader values are strings and numbers, whose `then` lookup would walk their prototypes.
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as PromiseLike<unknown>).then === "function";
}

/**
 * Calls `each` for every deferred value of the chain's loader data: a promise among the top-level
 * values of an object a loader returned. Returns whether there was any.
 */
export function forEachDeferred(
  data: Record<string, unknown>,
  each: (routeData: Record<string, unknown>, key: string, value: PromiseLike<unknown>) => void,
): boolean {
  let found = false;
  for (const id in data) {
    const routeData = data[id];
    if (typeof routeData !== "object" || routeData === null || Array.isArray(routeData)) continue;
    const record = routeData as Record<string, unknown>;
    for (const key in record) {
      const value = record[key];
      if (!isThenable(value)) continue;
      found = true;
      each(record, key, value);
    }
  }
  return found;
}
