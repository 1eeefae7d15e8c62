import { actionResult } from "../../routing/action-result";
import type { MatchedRoutes } from "../../../shared/routing/route-table";
import { headerPairs, isHttpErrorSignal, isNotFoundSignal, isRedirectSignal } from "../../../shared/routing/signals";
import type { AppRoutes } from "../../routing/app-routes";
import type { PageRequestContext } from "./request-context";
import { type EarlyFailure, type ResolveOptions, type RouteOutcome, redirectOutcome } from "./outcome";
import { resolveRoute } from "./resolve-route";
import type { RouteHandler } from "./route-kind";

/**
 * A POST to a page: runs its action, then the chain's loaders (so the page shows data the action
 * changed), and renders the page with the action's data and status. What the action throws is
 * answered as a middleware's failure at the leaf would be (resolveRoute).
 */
export async function runAction(
  routes: AppRoutes,
  matched: MatchedRoutes,
  action: RouteHandler,
  context: PageRequestContext,
  resolve: ResolveOptions,
): Promise<RouteOutcome> {
  let result: ReturnType<typeof actionResult>;
  try {
    result = actionResult(await context.touchingSession(action));
  } catch (error) {
    return resolveRoute(routes, matched, context, resolve, { depth: matched.matches.length - 1, error });
  }
  // Now, before the loaders, as the action's own setHeader calls were: a loader's may still replace them.
  for (const [name, value] of headerPairs(result.headers)) context.response.setHeader(name, value);
  const outcome = await resolveRoute(routes, matched, context, resolve);
  if (outcome.type === "state" && !outcome.state.error && outcome.status === 200) {
    outcome.status = result.status;
    outcome.state.actionData = result.data;
  }
  return outcome;
}

/** A resource route's answer: what its handler returned, or what stopped it as status and JSON. */
export async function runResource(
  handler: RouteHandler,
  context: PageRequestContext,
  resolve: ResolveOptions,
  early: EarlyFailure | undefined,
): Promise<RouteOutcome> {
  let error = early?.error;
  if (!early) {
    try {
      return { type: "resource", value: await context.touchingSession(handler) };
    } catch (thrown) {
      error = thrown;
    }
  }
  if (isRedirectSignal(error)) return redirectOutcome(error);
  // Sent by sendJson like any other JSON answer: one Content-Type, a Content-Length.
  if (isHttpErrorSignal(error)) return { type: "resource", value: error.data, status: error.status, headers: error.headers };
  if (isNotFoundSignal(error)) return { type: "resource", value: { error: "Not Found" }, status: 404 };
  resolve.onError(error);
  return { type: "resource", value: { error: "Internal Server Error" }, status: 500 };
}
