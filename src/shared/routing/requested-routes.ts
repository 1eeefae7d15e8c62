/**
 * A data request may name the routes whose loaders it wants (`?_routes=a,b`): the browser keeps
 * the other routes' data it already has. The leading underscore keeps it apart from a page's own query.
 */
export const ROUTES_PARAM = "_routes";

/** The data URL with the routes it asks for; every route of the chain when `ids` is undefined. */
export function withRequestedRoutes(url: string, ids: readonly string[] | undefined): string {
  if (!ids) return url;
  const separator = url.includes("?") ? "&" : "?";
  return `${url}${separator}${ROUTES_PARAM}=${ids.map(encodeURIComponent).join(",")}`;
}
