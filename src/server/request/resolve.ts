import type { MatchedRoutes } from "../../shared/routing/route-table";
import type { ClassifiedRequest } from "./classify";
import type { MaybePromise } from "./maybe-promise";
import type { EarlyFailure, RouteOutcome } from "./outcome";
import type { RequestScope } from "./request-scope";
import { resolveRoute } from "./resolve-route";
import { runAction, runMiddleware, runResource } from "./route-handlers";
import { readSearch } from "./route-search";
import type { RouteHandler } from "./route-kind";

/**
 * Resolves a classified request to its outcome: the page's query schema, the middleware root to leaf, then a resource
 * route's handler, or the action (a POST) and the loaders. Reads the request only through its
 * context, so it never answers: a writer in render/ does. No promise while everything answers
 * synchronously (most pages).
 */
export function resolve(request: ClassifiedRequest, scope: RequestScope): MaybePromise<RouteOutcome> {
  const { routes, context } = scope;
  const chain = request.matched ?? routes.table.notFound();
  // Only a store that fetches sessions (Redis) may make a request wait here, and only for a chain that uses it.
  const prepared = context.prepareSession(chain.pattern);
  const refused = readSearch(routes, chain, context);
  const next = () => refused ?? runMiddleware(routes, chain, context);
  const early = prepared ? prepared.then(next) : next();
  const outcome = early instanceof Promise ? early.then((failure) => run(request, scope, failure)) : run(request, scope, early);
  return outcome instanceof Promise ? outcome.then((resolved) => settle(resolved, request, scope)) : settle(outcome, request, scope);
}

function run(request: ClassifiedRequest, scope: RequestScope, early: EarlyFailure | undefined): MaybePromise<RouteOutcome> {
  const { routes, context } = scope;
  if (request.kind === "resource") return runResource(request.handler as RouteHandler, context, scope, early);
  if (early || !request.handler) return resolveRoute(routes, request.matched, context, scope, early);
  return runAction(routes, request.matched as MatchedRoutes, request.handler, context, scope);
}

/** The outcome's final status: the one place for the redirect after an action and a status the route chose. */
function settle(outcome: RouteOutcome, request: ClassifiedRequest, { context }: RequestScope): RouteOutcome {
  if (outcome.type === "redirect") {
    // A POST's redirect is always to a GET (post/redirect/get): a 307 would repeat the POST.
    if (request.handler && request.kind !== "resource") outcome.status = 303;
  } else if (outcome.type === "state") {
    // Chosen with response.status(); it shows only when the page renders without error.
    if (outcome.status === 200 && context.chosenStatus !== undefined) outcome.status = context.chosenStatus;
  } else outcome.status ??= context.chosenStatus;
  return outcome;
}
