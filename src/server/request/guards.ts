import type { Context } from "koa";
import type { BodyReader } from "../forms/body-parser";
import type { ClassifiedRequest } from "./core/classify";
import type { PipelinePlan } from "./pipeline-switch";

/** What an action op must pass before anything of its route runs; each answers its own refusal. */
export interface ActionGuards {
  /** CSRF: true when it refused the request as cross-site (403). */
  crossSite: (ctx: Context) => boolean;
  /** The body, read for the route's action with its upload policy; true when it refused it (400, 413, 415). */
  readBody: BodyReader;
}

/**
 * CSRF, then the body: true when a guard answered instead. The body is read only when an action
 * or a resource handler takes the request; otherwise it is left unread and the page answers
 * for itself (405, or the not-found page).
 */
export async function refusedByGuards(ctx: Context, request: ClassifiedRequest, plan: PipelinePlan, guards: ActionGuards): Promise<boolean> {
  if (guards.crossSite(ctx)) return true;
  if (!plan.taken) return false;
  return guards.readBody(ctx, request.route.server?.uploads);
}
