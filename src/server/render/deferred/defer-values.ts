import type { ServerResponse } from "node:http";
import { DeferredError, forEachDeferred } from "../../../shared/deferred/deferred-data";
import { isHttpErrorSignal, isNotFoundSignal, isRedirectSignal } from "../../../shared/routing/signals";
import type { RouteState } from "../../../shared/routing/route-state";
import { routeError } from "../../request/core/resolve-route";

/** A page's deferred values, readied for streaming. */
export interface DeferredValues {
  /**
   * Aborted once nobody can receive the values any more (the response closed, its client gone,
   * or the lines stopped for a HEAD or the time limit), after which a failure is not reported.
   */
  audience: AbortController;
  /** Whether every value has resolved: false while one is pending, and for good once one rejected (the page shows an error for it). */
  allResolved(): boolean;
}

/**
 * Readies a page's deferred values for streaming: its state's data then holds, in place of each,
 * a promise that reports its own failure (once, here) and rejects with what the page may see of
 * it, for the render and the encoding alike. Loaders' objects are copied, not changed. Null when
 * no loader deferred anything (most pages): nothing to stream.
 */
export function deferState(
  state: Pick<RouteState, "data">,
  report: (error: unknown) => string | undefined,
  exposeErrors: boolean,
  response: Pick<ServerResponse, "once">,
): DeferredValues | null {
  const audience = new AbortController();
  const outcomes = { pending: 0, rejected: false };
  const data = deferValues(state.data, (error) => (audience.signal.aborted ? undefined : report(error)), exposeErrors, outcomes);
  if (!data) return null;
  state.data = data;
  // Also while a page renders whole (a crawler's, a cached one), before anything is piped.
  response.once("close", () => audience.abort());
  return { audience, allResolved: () => outcomes.pending === 0 && !outcomes.rejected };
}

function deferValues(
  data: Record<string, unknown>,
  report: (error: unknown) => string | undefined,
  exposeErrors: boolean,
  outcomes: { pending: number; rejected: boolean },
): Record<string, unknown> | null {
  // Made on the first deferred value: most pages have none, and pay for no map.
  let copies: Map<Record<string, unknown>, Record<string, unknown>> | undefined;
  const found = forEachDeferred(data, (routeData, key, value) => {
    copies ??= new Map();
    let copy = copies.get(routeData);
    if (!copy) {
      copy = { ...routeData };
      copies.set(routeData, copy);
    }
    outcomes.pending++;
    copy[key] = Promise.resolve(value).then(
      (resolved) => {
        outcomes.pending--;
        return resolved;
      },
      (error: unknown) => {
        outcomes.pending--;
        outcomes.rejected = true;
        // A signal is an answer, not a failure: shown (it is too late to redirect), never reported.
        const signal = isHttpErrorSignal(error) || isRedirectSignal(error) || isNotFoundSignal(error);
        const eventId = signal ? undefined : report(error);
        throw new DeferredError(routeError(error, exposeErrors, eventId));
      },
    );
  });
  if (!found || !copies) return null;
  const deferred: Record<string, unknown> = {};
  for (const [id, routeData] of Object.entries(data)) deferred[id] = copies.get(routeData as Record<string, unknown>) ?? routeData;
  return deferred;
}

/** React's render error handler, minus deferred values' failures: those were reported when they settled. */
export function skipDeferredErrors(onError: (error: unknown) => string | undefined): (error: unknown) => string | undefined {
  return (error) => (error instanceof DeferredError ? undefined : onError(error));
}
