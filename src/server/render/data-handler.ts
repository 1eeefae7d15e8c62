import type { Context } from "koa";
import { BUILD_HEADER, type DataAnswer } from "../../shared/routing/data-request";
import { withStyles } from "../../shared/routing/route-state";
import { sendJson } from "../http/json-body";
import { requestUrl } from "../http/request-target";
import type { RouteMatch } from "../../shared/routing/route-table";
import type { RouteAssets } from "./route-assets";
import { matchRequest, type RouteRequestOptions, resolveRouteRequest } from "./route-request";
import { applyHeaders } from "../http/response-headers";
import { takeRequestedRoutes } from "./requested-routes";
import { answerDeferred } from "./deferred/deferred-answer";
import { deferState } from "./deferred/defer-values";
import { encodeLines } from "./deferred/deferred-lines";

interface DataOptions extends RouteRequestOptions {
  manifest: { buildId: string };
  /** Bounds how long deferred values may stream. */
  renderTimeoutMs: number;
}

function answer(ctx: Context, status: number, body: DataAnswer | { error: string; build: string }): void {
  ctx.status = status;
  ctx.res.setHeader("Cache-Control", "no-store");
  sendJson(ctx, body);
}

/**
 * A client navigation's data request: the matched chain's loader data as JSON, with the
 * status the page would have in the body. A request from another build is refused before any loader runs,
 * so the browser loads the page instead of mixing versions.
 */
export async function answerData(
  ctx: Context,
  pathname: string,
  options: DataOptions,
  assetsFor: (matches: readonly RouteMatch[]) => RouteAssets,
): Promise<void> {
  const build = options.manifest.buildId;
  const reading = ctx.method === "GET" || ctx.method === "HEAD";
  if (!reading && ctx.method !== "POST") {
    ctx.set("Allow", "GET, HEAD, POST");
    return answer(ctx, 405, { error: "data requests are GET, or POST for a form", build });
  }
  const sent = ctx.get(BUILD_HEADER);
  if (!sent) return answer(ctx, 400, { error: `the ${BUILD_HEADER} header is missing`, build });
  if (sent !== build) return answer(ctx, 409, { error: `build ${sent} is not the server's build`, build });
  const requested = takeRequestedRoutes(ctx, options.routes);
  if (!requested.ok) return answer(ctx, 400, { error: requested.error, build });
  const url = () => requestUrl(ctx, pathname);
  // A resource route is no page: the browser loads it as a document.
  if (matchRequest(ctx, pathname, options.routes, options.diagnostics).kind.resource) {
    return answer(ctx, 200, { error: "a resource route has no page data: load it as a document", build });
  }
  // A form submitted by <Form>: its action runs, then the page's loaders, as for a POST to the page.
  const request = await resolveRouteRequest(ctx, pathname, url, requested.only ? { ...options, loadOnly: requested.only } : options);
  if (!request) {
    ctx.set("Allow", "GET, HEAD");
    return answer(ctx, 405, { error: "this page has no action", build });
  }
  const { outcome, context, onError } = request;
  // The same cookies and headers as the page would carry: the browser keeps them from the fetch too.
  await context.commit();
  if (outcome.type === "resource") return;
  if (outcome.headers) applyHeaders(ctx, outcome.headers);
  if (outcome.type === "redirect") {
    return answer(ctx, 200, { kind: "redirect", build, status: outcome.status, location: outcome.location });
  }
  const { styles } = assetsFor(outcome.state.matches);
  // 200 whatever the page's status (it travels in the body): browsers log every 4xx and 5xx fetch as a console error.
  const status = outcome.status === 200 ? (context.chosenStatus ?? 200) : outcome.status;
  const audience = deferState(outcome.state, onError, options.exposeErrors, ctx.res);
  const body: DataAnswer = { kind: "state", build, status, state: withStyles(outcome.state, styles) };
  if (!audience) return answer(ctx, 200, body);
  answerDeferred(ctx, await encodeLines(body, onError, options.renderTimeoutMs, audience));
}
