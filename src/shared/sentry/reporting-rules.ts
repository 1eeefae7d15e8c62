import { NOT_FOUND_ROUTE } from "../routing/route-table";
import { isHttpErrorSignal, isRedirectSignal } from "../routing/signals";

/**
 * What error reporting drops, on the server and in the browser alike; nothing else is filtered:
 *   1. error events whose exception is a route's answer signal, `redirect()` or `httpError()`
 *      (a 4xx): the route answering its client, control flow rather than a fault in the code
 *      (`dropRedirectSignals`, each SDK's `beforeSend`);
 *   2. transactions for the not-found page, unmatched paths and loaders that threw notFound():
 *      they time a wrong address (a dead link, a scanner), not a page of the app
 *      (`IGNORED_SPANS`, each SDK's `ignoreSpans`).
 */

/** Transaction names are `METHOD pattern` on the server and `pattern` in the browser. */
export function transactionName(method: string | null, route: string): string {
  return method ? `${method} ${route}` : route;
}

/**
 * Matches not-found transaction names. Used in `ignoreSpans`, which (with the static trace
 * lifecycle this app uses) sees the transaction's final name, after the route is known.
 */
export const NOT_FOUND_TRANSACTION = new RegExp(`^(?:[A-Z]+ )?${NOT_FOUND_ROUTE}$`);

export function isNotFoundTransaction(name: string | undefined): boolean {
  return name !== undefined && NOT_FOUND_TRANSACTION.test(name);
}

interface EventLike {
  exception?: { values?: Array<{ type?: string }> };
}

interface HintLike {
  originalException?: unknown;
}

/**
 * Whether an event reports a `redirect()` or `httpError()` signal. The thrown value carries the
 * signal's marker; when the original is not at hand (an event built elsewhere), the exception's
 * type names the signal class. Message text is not used.
 */
export function isRedirectSignalEvent(event: EventLike, hint?: HintLike): boolean {
  if (hint && (isRedirectSignal(hint.originalException) || isHttpErrorSignal(hint.originalException))) return true;
  return event.exception?.values?.some((value) => value.type === "RedirectSignal" || value.type === "HttpErrorSignal") ?? false;
}

/** `beforeSend` for both SDKs. */
export function dropRedirectSignals<Event extends EventLike>(event: Event, hint?: HintLike): Event | null {
  return isRedirectSignalEvent(event, hint) ? null : event;
}

/** `ignoreSpans` for both SDKs. */
export const IGNORED_SPANS = [NOT_FOUND_TRANSACTION];
