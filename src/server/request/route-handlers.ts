import { actionResult } from "../routing/action-result";
import type { RouteMiddleware } from "../../shared/routing/module";
import type { MatchedRoutes } from "../../shared/routing/route-table";
import { headerPairs, isHttpErrorSignal, isNotFoundSignal, isRedirectSignal } from "../../shared/routing/signals";
import type { AppRoutes } from "../routing/app-routes";
import { type MaybePromise, isThenable } from "./maybe-promise";
import type { PageRequestContext } from "./request-context";
import { type EarlyFailure, type ResolveOptions, type RouteOutcome, redirectOutcome } from "./outcome";
import { resolveRoute } from "./resolve-route";
import type { RouteHandler } from "./route-kind";

type ChainMiddleware = readonly { depth: number; run: RouteMiddleware }[];

/** The app's middleware and each route's, root to leaf, with the depth each stands at. */
function collectMiddleware(routes: AppRoutes, chain: MatchedRoutes): ChainMiddleware | undefined {
  const all: { depth: number; run: RouteMiddleware }[] = [];
  // The app's own stops the request at the root's level: the root layout's error component shows it.
  for (const run of routes.appMiddleware) all.push({ depth: Math.min(1, chain.matches.length - 1), run });
  for (let depth = 0; depth < chain.matches.length; depth++) {
    const own = routes.serverHalf((chain.matches[depth] as { id: string }).id)?.middleware;
    if (own) for (const run of own) all.push({ depth, run });
  }
  return all.length > 0 ? all : undefined;
}

// By the chain's pattern: each pattern is one branch of the table, so one list of middleware.
const collected = new WeakMap<AppRoutes, Map<string, ChainMiddleware | undefined>>();

function middlewareOf(routes: AppRoutes, chain: MatchedRoutes): ChainMiddleware | undefined {
  let byPattern = collected.get(routes);
  if (!byPattern) {
    byPattern = new Map();
    collected.set(routes, byPattern);
  }
  if (!byPattern.has(chain.pattern)) byPattern.set(chain.pattern, collectMiddleware(routes, chain));
  return byPattern.get(chain.pattern);
}

/**
 * Runs the middleware one after another; the first that throws stops the chain, and its depth
 * says whose error component shows it. No promise while each answers synchronously (most).
 */
export function runMiddleware(routes: AppRoutes, chain: MatchedRoutes, context: PageRequestContext): MaybePromise<EarlyFailure | undefined> {
  const all = middlewareOf(routes, chain);
  return all ? runFrom(all, 0, context) : undefined;
}

function runFrom(all: ChainMiddleware, start: number, context: PageRequestContext): MaybePromise<EarlyFailure | undefined> {
  for (let index = start; index < all.length; index++) {
    const { depth, run } = all[index] as { depth: number; run: RouteMiddleware };
    let result: unknown;
    try {
      result = context.touchingSession(run);
    } catch (error) {
      return { depth, error };
    }
    if (isThenable(result)) {
      return Promise.resolve(result).then(
        () => runFrom(all, index + 1, context),
        (error: unknown) => ({ depth, error }),
      );
    }
  }
  return undefined;
}

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
