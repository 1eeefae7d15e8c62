import type { Context } from "koa";
import { BUILD_HEADER, type DataAnswer } from "../../shared/routing/data-request";
import { withStyles } from "../../shared/routing/route-state";
import { sendJson } from "../http/json-body";
import { isReadMethod } from "../http/methods";
import { applyHeaders } from "../http/response-headers";
import type { RouteMatch } from "../../shared/routing/route-table";
import type { ClassifiedRequest } from "../request/classify";
import type { PageOutcome, RedirectOutcome } from "../request/outcome";
import type { RequestScope } from "../request/request-scope";
import type { RouteAssets } from "./route-assets";
import { answerDeferred } from "./deferred/deferred-answer";
import { deferState } from "./deferred/defer-values";
import { encodeLines } from "./deferred/deferred-lines";

function answer(ctx: Context, status: number, body: DataAnswer | { error: string; build: string }): void {
  ctx.status = status;
  ctx.res.setHeader("Cache-Control", "no-store");
  sendJson(ctx, body);
}

type Refusal = { status: number; error: string; allow?: string };

/**
 * Why a data request must not run: another method, a missing header, another build (refused
 * before any loader, so the browser loads the page instead of mixing versions), bad `_routes`,
 * a resource route, a POST to a page without an action.
 */
function refusalOf(ctx: Context, { route, handler, requested }: ClassifiedRequest, build: string): Refusal | undefined {
  if (!isReadMethod(ctx.method) && ctx.method !== "POST") {
    return { status: 405, error: "data requests are GET, or POST for a form", allow: "GET, HEAD, POST" };
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
export function refuseData(ctx: Context, request: ClassifiedRequest, build: string): boolean {
  const refusal = refusalOf(ctx, request, build);
  if (!refusal) return false;
  if (refusal.allow) ctx.set("Allow", refusal.allow);
  answer(ctx, refusal.status, { error: refusal.error, build });
  return true;
}

export interface DataAnswerOptions {
  build: string;
  /** Bounds how long deferred values may stream. */
  renderTimeoutMs: number;
  assetsFor: (matches: readonly RouteMatch[]) => RouteAssets;
}

/**
 * The data-answer writer: a client navigation's loader data as JSON, with the status the page
 * would have in the body, or where a redirect goes (a form submitted by <Form> ran its action
 * first). The same cookies and headers as the page would carry: the browser keeps them from the fetch too.
 */
export async function answerData(ctx: Context, outcome: PageOutcome | RedirectOutcome, scope: RequestScope, options: DataAnswerOptions): Promise<void> {
  const { build } = options;
  if (outcome.headers) applyHeaders(ctx, outcome.headers);
  if (outcome.type === "redirect") {
    return answer(ctx, 200, { kind: "redirect", build, status: outcome.status, location: outcome.location });
  }
  // 200 whatever the page's status (it travels in the body): browsers log every 4xx and 5xx fetch as a console error.
  const values = deferState(outcome.state, scope.onError, scope.exposeErrors, ctx.res);
  const { styles } = options.assetsFor(outcome.state.matches);
  const body: DataAnswer = { kind: "state", build, status: outcome.status, state: withStyles(outcome.state, styles) };
  if (!values) return answer(ctx, 200, body);
  answerDeferred(ctx, await encodeLines(body, scope.onError, options.renderTimeoutMs, values.audience));
}
