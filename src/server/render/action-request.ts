import type { Context } from "koa";
import { actionResult } from "../../shared/routing/action-result";
import type { ActionContext, ActionServices, UploadedFile } from "../../shared/routing/module";
import type { MatchedRoutes, RouteMatch } from "../../shared/routing/route-table";
import { isNotFoundSignal, isRedirectSignal } from "../../shared/routing/signals";
import { NOT_FOUND_ROUTE } from "../../shared/sentry/reporting-rules";
import { type AppRoutes, pageServerHalf } from "../routing/app-routes";
import { boundaryAbove, type RouteOutcome, resolveRoute, routeError } from "./resolve-route";
import { errorReporter, labelRoute, type RouteRequest, type RouteRequestOptions, resolveRouteRequest } from "./route-request";

const actionOf = (routes: AppRoutes, matched: MatchedRoutes | null) => pageServerHalf(routes, matched)?.action;

/** The methods a page answers; POST where its route has an action. */
export function allowedMethods(routes: AppRoutes, matched: MatchedRoutes | null): string {
  return actionOf(routes, matched) ? "GET, HEAD, POST" : "GET, HEAD";
}

class RequestActionContext implements ActionContext {
  readonly #ctx: Context;
  readonly #url: () => URL;
  readonly params;
  readonly services: ActionServices;

  constructor(ctx: Context, match: RouteMatch, url: () => URL, services: ActionServices) {
    this.#ctx = ctx;
    this.#url = url;
    this.params = match.params;
    this.services = services;
  }

  get url(): URL {
    return this.#url();
  }

  get body(): unknown {
    return this.#ctx.request.body ?? {};
  }

  get clientIp(): string {
    return this.#ctx.ip;
  }

  get files(): Record<string, UploadedFile[]> {
    const files: Record<string, UploadedFile[]> = {};
    for (const [field, entry] of Object.entries(this.#ctx.request.files ?? {})) {
      files[field] = (Array.isArray(entry) ? entry : [entry]).map((file) => ({
        path: file.filepath,
        name: file.originalFilename,
        type: file.mimetype,
        size: file.size,
      }));
    }
    return files;
  }

  header(name: string): string {
    return this.#ctx.get(name);
  }
}

// A POST's redirect is always to a GET (post/redirect/get): a 307 would repeat the POST.
const toGet = (outcome: RouteOutcome): RouteOutcome => (outcome.type === "redirect" ? { ...outcome, status: 303 } : outcome);

/**
 * A POST to a page: runs its route's action, then the chain's loaders (so the page shows data
 * the action changed), and renders the page with the action's data and status. `redirect()`
 * is answered 303, `notFound()` with the not-found page, and a thrown error as a loader's is:
 * reported once, shown by the nearest error component above the route, status 500. Null when
 * the route has no action (405).
 */
export async function resolveActionRequest(ctx: Context, pathname: string, url: () => URL, options: RouteRequestOptions): Promise<RouteRequest | null> {
  const { routes } = options;
  const matched = routes.table.match(pathname, { diagnostics: options.diagnostics });
  if (!matched) return resolveRouteRequest(ctx, pathname, url, options);
  const action = actionOf(routes, matched);
  if (!action) return null;
  const report = options.monitoring?.forRequest(ctx.req);
  labelRoute(ctx, report, matched.pattern);
  const onError = errorReporter(ctx, report, options);
  const resolve = { exposeErrors: options.exposeErrors, onError };
  const leaf = matched.matches.length - 1;
  let result: ReturnType<typeof actionResult>;
  try {
    result = actionResult(await action(new RequestActionContext(ctx, matched.matches[leaf] as RouteMatch, url, options.services)));
  } catch (error) {
    if (isRedirectSignal(error)) return { outcome: { type: "redirect", location: error.location, status: 303 }, report, onError };
    if (isNotFoundSignal(error)) {
      labelRoute(ctx, report, NOT_FOUND_ROUTE);
      return { outcome: await resolveRoute(routes, null, url, resolve), report, onError };
    }
    const eventId = onError(error);
    const outcome = toGet(await resolveRoute(routes, matched, url, resolve));
    if (outcome.type === "state" && !outcome.state.error) {
      outcome.status = 500;
      outcome.state.error = { boundaryId: boundaryAbove(routes, matched.matches, leaf), error: routeError(error, options.exposeErrors, eventId) };
    }
    return { outcome, report, onError };
  }
  for (const [name, value] of Object.entries(result.headers)) ctx.set(name, value);
  const outcome = toGet(await resolveRoute(routes, matched, url, resolve));
  if (outcome.type === "state" && !outcome.state.error && outcome.status === 200) {
    outcome.status = result.status;
    outcome.state.actionData = result.data;
  }
  return { outcome, report, onError };
}
