import type { Context } from "koa";
import type { DataAnswer } from "../../shared/routing/data-request";
import { withStyles } from "../../shared/routing/route-state";
import type { RenderSettings } from "../config/render-settings";
import { sendJson } from "../http/json-body";
import { applyHeaders } from "../http/response-headers";
import type { RouteMatch } from "../../shared/routing/route-table";
import type { PageOutcome, RedirectOutcome, RouteOutcome } from "../request/core/outcome";
import type { RequestScope } from "../request/core/request-scope";
import type { RouteAssets } from "./route-assets";
import { answerDeferred } from "./deferred/deferred-answer";
import { deferState } from "./deferred/defer-values";
import { encodeLines } from "./deferred/deferred-lines";

/** A data answer as JSON, never stored: a navigation's answer, or a refusal (with its `error`). */
export function answerDataJson(ctx: Context, status: number, body: DataAnswer | { error: string; build: string }): void {
  ctx.status = status;
  ctx.res.setHeader("Cache-Control", "no-store");
  sendJson(ctx, body);
}

export interface DataAnswerOptions {
  build: string;
  settings: RenderSettings;
  assetsFor: (matches: readonly RouteMatch[]) => RouteAssets;
}

/**
 * The data-answer writer: a client navigation's loader data as JSON, with the status the page
 * would have in the body, or where a redirect goes (a form submitted by <Form> ran its action
 * first). The same cookies and headers as the page would carry: the browser keeps them from the fetch too.
 */
export async function answerData(ctx: Context, answered: RouteOutcome, scope: RequestScope, options: DataAnswerOptions): Promise<void> {
  // A page's loaders and action come to a page or a redirect, never a resource route's answer.
  const outcome = answered as PageOutcome | RedirectOutcome;
  const { build } = options;
  if (outcome.headers) applyHeaders(ctx, outcome.headers);
  if (outcome.type === "redirect") {
    return answerDataJson(ctx, 200, { kind: "redirect", build, status: outcome.status, location: outcome.location });
  }
  // 200 whatever the page's status (it travels in the body): browsers log every 4xx and 5xx fetch as a console error.
  const values = deferState(outcome.state, scope.onError, scope.settings.exposeErrors, ctx.res);
  const { styles } = options.assetsFor(outcome.state.matches);
  const body: DataAnswer = { kind: "state", build, status: outcome.status, state: withStyles(outcome.state, styles) };
  if (!values) return answerDataJson(ctx, 200, body);
  answerDeferred(ctx, await encodeLines(body, scope.onError, options.settings.renderTimeoutMs, values.audience));
}
