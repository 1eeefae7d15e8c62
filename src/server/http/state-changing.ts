import type { Middleware } from "koa";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Runs `guards` in order for state-changing requests only: page GETs, the hot path, pass with
 * one check instead of a trip through each guard's own.
 */
export function forStateChanging(...guards: Middleware[]): Middleware {
  return (ctx, next) => {
    if (SAFE_METHODS.has(ctx.method)) return next();
    const run = (index: number): Promise<unknown> => {
      const guard = guards[index];
      return guard ? Promise.resolve(guard(ctx, () => run(index + 1))) : next();
    };
    return run(0);
  };
}
