import type { Context } from "koa";
import { withStyles } from "../../shared/routing/route-state";
import { applyHeaders } from "../http/response-headers";
import { pipeResponse } from "../http/stream-response";
import type { PageOutcome, RouteOutcome } from "../request/core/outcome";
import { isShareable, type RequestScope } from "../request/core/request-scope";
import { deferState, skipDeferredErrors } from "./deferred/defer-values";
import { encodeLines } from "./deferred/deferred-lines";
import { createNonce } from "../http/nonce";
import { answerCacheable, collectDocument, isPublicPage, routeHeaders } from "./cache-control-headers";
import { type DocumentOptions, type PageRender, startDocument } from "./render-document";
import { writeRedirect } from "./resource-answer";

/** A document URL's answer: the HTML document, or the redirect it answers with. */
export function writeDocument(ctx: Context, outcome: RouteOutcome, scope: RequestScope, options: DocumentOptions): Promise<void> | void {
  return outcome.type === "redirect" ? writeRedirect(ctx, outcome) : answerPage(ctx, outcome as PageOutcome, scope, options);
}

/**
 * The HTML document writer: streams the page (the shell first; crawlers and cacheable pages
 * whole, a cacheable one with its ETag), its deferred values after it, under the route's cache policy.
 */
export async function answerPage(ctx: Context, outcome: PageOutcome, scope: RequestScope, options: DocumentOptions): Promise<void> {
  const { report, onError, context } = scope;
  if (outcome.headers) applyHeaders(ctx, outcome.headers);
  const started = performance.now();
  const values = deferState(outcome.state, onError, options.settings.exposeErrors, ctx.res);
  const deferred = values ? await encodeLines(outcome.state.data, onError, options.settings.renderTimeoutMs, values.audience) : undefined;
  const assets = options.assetsFor(outcome.state.matches);
  const { status } = outcome;
  const headers = routeHeaders(options.routes, outcome.state);
  // A cookie on the answer (set by any code, through any API) makes it this visitor's: never kept, never shared.
  if (!context.personal && ctx.res.hasHeader("set-cookie")) context.personal = true;
  const cacheable = options.prerendering === true || (isPublicPage(headers, status) && isShareable(scope));
  // Whether the render reported an error (a boundary shown in place of a component, the render timed out): kept nowhere.
  let failed = false;
  const reportError = deferred ? skipDeferredErrors(onError) : onError;
  // A HEAD's body is never sent, so nobody receives a deferred value (a cached page's is in its ETag).
  if (ctx.method === "HEAD" && !cacheable) values?.audience.abort();
  const page: PageRender = {
    state: withStyles(outcome.state, assets.styles),
    status,
    cacheable,
    routeHeaders: headers,
    personal: context.personal,
    assets,
    // A cached page is the same for everybody: no per-request trace. Its nonce is fresh too: a
    // kept one's is replaced at the offsets the renderer wrote it (stored-page.ts), nowhere else.
    traceMeta: cacheable ? {} : (report?.traceMeta() ?? {}),
    nonce: createNonce(),
    scriptFor: options.scriptFor,
    onError: cacheable
      ? (error) => {
          failed = true;
          return reportError(error);
        }
      : reportError,
    deferred,
  };
  const render = await startDocument(ctx, page, options);
  if (!render) {
    deferred?.stop();
    return;
  }
  if (cacheable && ctx.status === 200) {
    answerCacheable(ctx, await collectDocument(render.pipe), page.nonce);
    render.close(true);
    // A deferred value settled meanwhile may have read who asks or set a cookie: then no shared cache may keep it.
    if (!page.personal && (context.personal || ctx.res.hasHeader("set-cookie"))) {
      context.personal = true;
      ctx.res.setHeader("Cache-Control", "private, no-store");
      ctx.vary("Cookie");
      return;
    }
    if (failed || (values && !values.allResolved())) {
      // It shows an error or a fallback where a value or a component should be: right for this visitor, wrong to keep (here or in a CDN).
      scope.partial = true;
      ctx.res.setHeader("Cache-Control", "no-cache");
    }
    return;
  }
  const pattern = page.state.pattern;
  // A visitor who leaves mid-stream (or a HEAD, answered at the shell) should not keep React rendering for nobody.
  pipeResponse(ctx, render.pipe, (finished) => {
    render.close(finished);
    if (finished) options.observeRender?.(pattern, (performance.now() - started) / 1000);
  });
}
