import type { Context, Middleware } from "koa";

/**
 * Runs `guards` (CSRF, then the body parser) one after another, then `answer`: any guard may
 * answer instead (a 403, a 413…) and stop there. Only an action op comes here.
 */
export function behindGuards(guards: readonly Middleware[], ctx: Context, answer: () => unknown): Promise<unknown> {
  const run = (index: number): Promise<unknown> => {
    const guard = guards[index];
    return Promise.resolve(guard ? guard(ctx, () => run(index + 1)) : answer());
  };
  return run(0);
}
