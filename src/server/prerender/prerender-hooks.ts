import type { Context } from "koa";

/** The build's prerender run: told of every page answer (to keep) and every render error (to fail on). */
export interface PrerenderHooks {
  onAnswer: (ctx: Context) => void;
  onRenderError: (error: unknown, ctx: Context) => void;
}
