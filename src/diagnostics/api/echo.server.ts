import type { RequestContext } from "#outpost";

/** A resource route: GET answers the query as JSON. */
export function load({ method, url }: RequestContext) {
  return { method, query: Object.fromEntries(url.searchParams) };
}

/** POST answers the parsed body (JSON or a form); other methods are 405 with Allow. */
export function action({ method, body }: RequestContext) {
  return { method, body };
}

export const actionMethods = ["POST"];
