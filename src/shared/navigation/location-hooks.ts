import { useCallback, useContext, useMemo, useSyncExternalStore } from "react";
import type { ParamsOf, RoutePattern } from "../routing/register";
import { RenderedRoutesContext } from "../routing/rendered-routes";
import type { NavigateOptions } from "./router-context";
import { RouterContext } from "./router-context";
import type { RouterLocation } from "./router-state";
import { ServedLocationContext } from "./served-location";
import { useNavigate } from "./use-navigate";

// The server reads it from here; the document imports ./served-location, which does not bring these hooks.
export { servedLocation } from "./served-location";

const noSubscription = () => () => {};

/** The address on screen: pathname, search, hash, the entry's state and key. */
export function useLocation(): RouterLocation {
  const router = useContext(RouterContext);
  const served = useContext(ServedLocationContext);
  return useSyncExternalStore(
    router ? router.subscribe : noSubscription,
    router ? () => router.state().location : () => served,
    () => served,
  );
}

/** What setSearchParams takes: a query string, pairs, or values by name (an array repeats the name). */
export type SearchParamsInit = string | URLSearchParams | [string, string][] | Record<string, string | readonly string[]>;

export type SetSearchParams = (
  next: SearchParamsInit | ((current: URLSearchParams) => SearchParamsInit),
  options?: Omit<NavigateOptions, "state">,
) => Promise<void>;

/**
 * The page's query, and a setter that navigates to this page with another query (a new history
 * entry, or this one with `replace`); the page's `searchParams` schema validates it as any URL.
 */
export function useSearchParams(): [URLSearchParams, SetSearchParams] {
  const { search } = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setSearchParams = useCallback<SetSearchParams>(
    (next, options) => {
      const value = typeof next === "function" ? next(new URLSearchParams(search)) : next;
      const query = searchParamsOf(value).toString();
      // Relative to the page on screen: its path, this query, no fragment.
      return navigate(`?${query}`, options);
    },
    [search, navigate],
  );
  return [params, setSearchParams];
}

function searchParamsOf(init: SearchParamsInit): URLSearchParams {
  if (typeof init === "string" || init instanceof URLSearchParams || Array.isArray(init)) return new URLSearchParams(init);
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(init)) for (const each of typeof value === "string" ? [value] : value) params.append(name, each);
  return params;
}

/**
 * The page's params: `useParams("/notes/:id")` gives the params of that matched route, typed by
 * the registered table (as useRouteLoaderData); without a pattern, the page's own, loosely typed.
 * Throws when no route of that pattern is matched: the types would otherwise promise params
 * that are not there.
 */
export function useParams<const Pattern extends RoutePattern = never>(pattern?: Pattern): ParamsOf<Pattern> {
  const rendered = useContext(RenderedRoutesContext);
  if (!rendered) return {} as ParamsOf<Pattern>;
  const { matches } = rendered.state;
  if (pattern === undefined) return (matches.at(-1)?.params ?? {}) as ParamsOf<Pattern>;
  const ids = rendered.table.routeIds(pattern);
  const match = matches.find((candidate) => ids.includes(candidate.id));
  if (!match) throw new Error(`useParams("${pattern}"): no route of that pattern is matched by this page (${rendered.state.pattern})`);
  return match.params as ParamsOf<Pattern>;
}
