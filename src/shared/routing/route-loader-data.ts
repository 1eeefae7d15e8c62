import { useContext } from "react";
import type { DataOf } from "./inferred-data";
import type { RoutePattern } from "./register";
import { RenderedRoutesContext } from "./rendered-routes";

/**
 * A matched route's loader data, from any component of the page: a child reads its layout's
 * with `useRouteLoaderData<typeof load>("/notes")` (the layout's full pattern, typed by the
 * registered table; its data inferred from its `load`). It reads the data the page renders with,
 * so it follows client navigations, revalidations and data kept from an earlier page; undefined
 * when no route of that pattern is matched (or it has no loader). Where a layout and its index
 * route share a pattern, the layout's is read.
 */
export function useRouteLoaderData<Load = unknown>(pattern: RoutePattern): DataOf<Load> | undefined {
  const rendered = useContext(RenderedRoutesContext);
  if (!rendered) return undefined;
  const ids = rendered.table.routeIds(pattern);
  const match = rendered.state.matches.find((candidate) => ids.includes(candidate.id));
  return match ? (rendered.state.data[match.id] as DataOf<Load>) : undefined;
}
