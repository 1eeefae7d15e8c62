import type { RouteError } from "../routing/module";
import { DeferredError } from "./deferred-markers";

// The server and the stream decoder read them from here; the browser's first chunk imports ./deferred-markers alone.
export { DEFERRED_DATA_TYPE, DEFERRED_DIGEST, DEFERRED_GLOBAL, DeferredError, reportedByServer } from "./deferred-markers";

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
