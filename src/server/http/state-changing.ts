import type { Middleware } from "koa";

/** Methods that change nothing: no CSRF check, no body. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * `handler` behind `guards` for state-changing requests only: page GETs, the hot path, go
 * straight to the handler with one method check, not a middleware layer of their own.
 */
export function behindGuards(guards: readonly Middleware[], handler: Middleware): Middleware {
  return (ctx, next) => {
    if (SAFE_METHODS.has(ctx.method)) return handler(ctx, next);
    const run = (index: number): Promise<unknown> => {
      const guard = guards[index];
      return Promise.resolve(guard ? guard(ctx, () => run(index + 1)) : handler(ctx, next));
    };
    return run(0);
  };
}
