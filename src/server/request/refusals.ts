import type { Context } from "koa";
import { BUILD_HEADER } from "../../shared/routing/data-request";
import { isReadMethod } from "../http/methods";
import { refuse } from "../http/refuse";
import { answerDataJson } from "../render/data-answer";
import type { ClassifiedRequest } from "./core/classify";

/** Answers what may not run (a 405, a data request's 4xx) before anything else; true when it did. */
export type Refusal = (ctx: Context, request: ClassifiedRequest, build: string) => boolean;

/** A page or resource route that does not take the method: 405 with the methods it does. */
export const refuseMethod: Refusal = (ctx, { handler, route }) => {
  if (handler !== null) return false;
  ctx.set("Allow", route.allow);
  refuse(ctx, 405, `Method not allowed here: use ${route.allow}`);
  return true;
};

type DataRefusal = { status: number; error: string; allow?: string };

/**
 * Why a data request must not run: another method, a missing header, another build (refused
 * before any loader, so the browser loads the page instead of mixing versions), bad `_routes`,
 * a resource route, a POST to a page without an action.
 */
function refusalOf(ctx: Context, { route, handler, requested }: ClassifiedRequest, build: string): DataRefusal | undefined {
  if (!isReadMethod(ctx.method) && ctx.method !== "POST") {
    // A resource route's data URL only ever says "load it as a document".
    return { status: 405, error: "data requests are GET, or POST for a form", allow: route.resource ? "GET, HEAD" : route.allow };
  }
  const sent = ctx.get(BUILD_HEADER);
  if (!sent) return { status: 400, error: `the ${BUILD_HEADER} header is missing` };
  if (sent !== build) return { status: 409, error: `build ${sent} is not the server's build` };
  if (requested && !requested.ok) return { status: 400, error: requested.error };
  // A resource route is no page: the browser loads it as a document.
  if (route.resource) return { status: 200, error: "a resource route has no page data: load it as a document" };
  if (handler === null) return { status: 405, error: "this page has no action", allow: "GET, HEAD" };
  return undefined;
}

/** Answers a data request that must not run; false when it may. */
export const refuseData: Refusal = (ctx, request, build) => {
  const refusal = refusalOf(ctx, request, build);
  if (!refusal) return false;
  if (refusal.allow) ctx.set("Allow", refusal.allow);
  answerDataJson(ctx, refusal.status, { error: refusal.error, build });
  return true;
};
