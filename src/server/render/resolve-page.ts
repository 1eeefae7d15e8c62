import type { ErrorDetails } from "../../shared/pages/ErrorPage";
import type { RouteMatch } from "../../shared/routing/find-route";
import type { Params } from "../../shared/routing/match";
import { type LoaderContext, routeTitle } from "../../shared/routing/route";
import { isNotFoundSignal, isRedirectSignal } from "../../shared/routing/signals";
import type { PageState } from "../../shared/document/payload";

export type PageOutcome =
  | { type: "redirect"; location: string; status: number }
  | { type: "page"; status: number; title: string; page: PageState };

export const NOT_FOUND: PageOutcome = {
  type: "page",
  status: 404,
  title: "Page not found · Outpost",
  page: { kind: "not-found" },
};

export function errorOutcome(error: unknown, exposeDetails: boolean): PageOutcome {
  return {
    type: "page",
    status: 500,
    title: "Something went wrong · Outpost",
    page: { kind: "error", error: exposeDetails ? errorDetails(error) : undefined },
  };
}

function errorDetails(error: unknown): ErrorDetails {
  return error instanceof Error
    ? { message: error.message, stack: error.stack }
    : { message: String(error) };
}

/** Made on the loader's first read of `url`: most loaders never look at it. */
class RequestLoaderContext implements LoaderContext {
  readonly params: Params;
  readonly #url: () => URL;

  constructor(params: Params, url: () => URL) {
    this.params = params;
    this.#url = url;
  }

  get url(): URL {
    return this.#url();
  }
}

/**
 * Runs the route's loader and turns its result or its signal into what to answer. Real
 * errors go to `onError` exactly once; the two signals are control flow, not errors.
 */
export async function resolvePage(
  match: RouteMatch | null,
  url: () => URL,
  { exposeErrors, onError }: { exposeErrors: boolean; onError: (error: unknown) => void },
): Promise<PageOutcome> {
  if (!match) return NOT_FOUND;
  const { route, params } = match;
  try {
    const data = route.load ? await route.load(new RequestLoaderContext(params, url)) : null;
    return {
      type: "page",
      status: 200,
      title: routeTitle(route, data),
      page: { kind: "route", routePath: route.path, params, data },
    };
  } catch (error) {
    if (isRedirectSignal(error)) {
      return { type: "redirect", location: error.location, status: error.status };
    }
    if (isNotFoundSignal(error)) return NOT_FOUND;
    onError(error);
    return errorOutcome(error, exposeErrors);
  }
}
