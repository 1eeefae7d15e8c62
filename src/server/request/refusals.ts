import type { Context } from "koa";
import { BUILD_HEADER } from "../../shared/routing/data-request";
import { isReadMethod } from "../http/methods";
import { refuse } from "../http/refuse";
import { answerDataJson } from "../render/data-answer";
import type { ClassifiedRequest } from "./core/classify";

/** Answers what may not run (a 405, a data request's 4xx) before anything else; true when it did. */
export type Refusal = (ctx: Context, request: ClassifiedRequest, build: string) => boolean;

/** A request its route takes: nothing to refuse before it runs. */
export const refuseNothing: Refusal = () => false;

/** A page or resource route that does not take the method (the switch chose so): 405 with the methods it does. */
export const refuseMethod: Refusal = (ctx, { route }) => {
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
function refusalOf(ctx: Context, { route, requested }: ClassifiedRequest, build: string, notTaken: boolean): DataRefusal | undefined {
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
  if (notTaken) return { status: 405, error: "this page has no action", allow: "GET, HEAD" };
  return undefined;
}

/** Answers a data request that must not run; false when it may. */
function answerDataRefusal(ctx: Context, refusal: DataRefusal | undefined, build: string): boolean {
  if (!refusal) return false;
  if (refusal.allow) ctx.set("Allow", refusal.allow);
  answerDataJson(ctx, refusal.status, { error: refusal.error, build });
  return true;
}

/** A data request its page takes, refused only for the request's own faults. */
export const refuseData: Refusal = (ctx, request, build) => answerDataRefusal(ctx, refusalOf(ctx, request, build, false), build);

/** A data request for a method its page does not take (the switch chose so): refused, at the latest as a 405. */
export const refuseDataNotTaken: Refusal = (ctx, request, build) => answerDataRefusal(ctx, refusalOf(ctx, request, build, true), build);
