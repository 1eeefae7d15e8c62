import type { Middleware } from "koa";

/**
 * Runs `middleware` only for paths under `prefix`; every other request passes straight on.
 * A router's own matching is a pass over its layers and a promise per request, paid by every
 * page in front of which it is mounted.
 */
export function underPath<State, Context>(prefix: string, middleware: Middleware<State, Context>): Middleware<State, Context> {
  return (ctx, next) => (ctx.path.startsWith(prefix) ? middleware(ctx, next) : next());
}
