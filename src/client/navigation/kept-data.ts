import type { RouteState } from "../../shared/routing/route-state";

/**
 * The next page's state with the data of the routes that were not asked for taken from the page
 * on screen: a data request that named its routes answers only theirs.
 */
export function withKeptData(next: RouteState, current: RouteState, requested: readonly string[] | undefined): RouteState {
  if (!requested) return next;
  const data: Record<string, unknown> = {};
  next.matches.forEach((match, depth) => {
    const shown = current.matches[depth];
    const kept = !requested.includes(match.id) && shown?.id === match.id && !(match.id in next.data);
    if (kept) {
      if (match.id in current.data) data[match.id] = current.data[match.id];
    } else if (match.id in next.data) data[match.id] = next.data[match.id];
  });
  return { ...next, data };
}
