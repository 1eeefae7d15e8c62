import type { RouteMiddleware } from "../../../shared/routing/module";
import type { MatchedRoutes } from "../../../shared/routing/route-table";
import type { AppRoutes } from "../../routing/app-routes";
import { type MaybePromise, isThenable } from "./maybe-promise";
import type { EarlyFailure } from "./outcome";
import type { PageRequestContext } from "./request-context";

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
