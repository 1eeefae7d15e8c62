import type { MatchedRoutes } from "../../../shared/routing/route-table";
import type { ClassifiedRequest } from "./classify";
import type { MaybePromise } from "./maybe-promise";
import type { EarlyFailure, RouteOutcome } from "./outcome";
import type { RequestScope } from "./request-scope";
import { resolveRoute } from "./resolve-route";
import { runAction, runResource } from "./route-handlers";
import { runMiddleware } from "./route-middleware";
import { readSearch } from "./route-search";
import type { RouteHandler } from "./route-kind";

/** What runs once the chain's middleware did: a resource route's handler, the action and loaders, or the loaders. */
export type Resolver = (request: ClassifiedRequest, scope: RequestScope, early: EarlyFailure | undefined) => MaybePromise<RouteOutcome>;

/** A resource route's handler (the switch chose it for a resource route, so `handler` is set). */
export const resolveResource: Resolver = (request, scope, early) => runResource(request.handler as RouteHandler, scope.context, scope, early);

/** A page's loaders: a read, or a state-changing request no action takes (the not-found page). */
export const resolveLoaders: Resolver = (request, scope, early) => resolveRoute(scope.routes, request.matched, scope.context, scope, early);

/** A page's action, then its loaders; its redirect is always a 303. */
export const resolveAction: Resolver = (request, scope, early) => {
  const outcome = early
    ? resolveRoute(scope.routes, request.matched, scope.context, scope, early)
    : runAction(scope.routes, request.matched as MatchedRoutes, request.handler as RouteHandler, scope.context, scope);
  return outcome instanceof Promise ? outcome.then(seeOther) : seeOther(outcome);
};

/** A POST's redirect is always to a GET (post/redirect/get): a 307 would repeat the POST. */
function seeOther(outcome: RouteOutcome): RouteOutcome {
  if (outcome.type === "redirect") outcome.status = 303;
  return outcome;
}

/**
 * Resolves a classified request to its outcome: the page's query schema, the middleware root to
 * leaf, then what the switch chose (`resolver`). Reads the request only through its context, so
 * it never answers: a writer in render/ does. No promise while everything answers synchronously (most pages).
 */
export function resolve(request: ClassifiedRequest, scope: RequestScope, resolver: Resolver): MaybePromise<RouteOutcome> {
  const { routes, context } = scope;
  const chain = request.matched ?? routes.table.notFound();
  // Only a store that fetches sessions (Redis) may make a request wait here, and only for a chain that uses it.
  const prepared = context.prepareSession(chain.pattern);
  const refused = readSearch(routes, chain, context, request);
  // No closure on the usual path, which prepares nothing.
  const early = prepared ? prepared.then(() => refused ?? runMiddleware(routes, chain, context)) : (refused ?? runMiddleware(routes, chain, context));
  const outcome = early instanceof Promise ? early.then((failure) => resolver(request, scope, failure)) : resolver(request, scope, early);
  return outcome instanceof Promise ? outcome.then((resolved) => withChosenStatus(resolved, scope)) : withChosenStatus(outcome, scope);
}

/** The outcome's final status: one the route chose with response.status(). */
function withChosenStatus(outcome: RouteOutcome, { context }: RequestScope): RouteOutcome {
  if (outcome.type === "state") {
    // Chosen with response.status(); it shows only when the page renders without error.
    if (outcome.status === 200 && context.chosenStatus !== undefined) outcome.status = context.chosenStatus;
  } else if (outcome.type === "resource") outcome.status ??= context.chosenStatus;
  return outcome;
}
