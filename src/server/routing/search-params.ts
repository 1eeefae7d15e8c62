import type { SearchIssue, SearchSchema } from "../../shared/routing/search-schema";
import { HttpErrorSignal } from "../../shared/routing/signals";

/**
 * The query as a schema reads it: each parameter a string, or an array of strings when repeated.
 * The object has no prototype, so `__proto__` or `constructor` in a query is a key like any other.
 */
export function queryObject(search: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of search) {
    const seen = query[name];
    if (seen === undefined) query[name] = value;
    else if (typeof seen === "string") query[name] = [seen, value];
    // Pushed, never copied: a parameter repeated n times costs n steps, not n²/2.
    else seen.push(value);
  }
  return query;
}

/**
 * The query parsed by a route's schema, its defaults applied. A query the schema refuses throws
 * a 400 signal (shown by the route's error component, never reported) carrying `{ issues }`;
 * a schema that validates asynchronously is a mistake of the route, thrown as a TypeError.
 */
export function parseSearch(schema: SearchSchema, search: URLSearchParams, routeId: string): unknown {
  const result = schema["~standard"].validate(queryObject(search));
  if (result instanceof Promise) {
    result.catch(() => {});
    throw new TypeError(`searchParams of route ${routeId}: its schema validates asynchronously; a query schema must validate synchronously`);
  }
  if (!result.issues) return result.value;
  const issues: SearchIssue[] = result.issues.map(({ message, path = [] }) => ({
    path: path.map((key) => String(typeof key === "object" ? key.key : key)),
    message,
  }));
  throw new HttpErrorSignal(400, { issues });
}

/** The query as the page's schema took it, or what it threw (a 400 signal, a broken schema). */
export type ParsedSearch = { ok: true; value: unknown } | { ok: false; error: unknown };

/** The request's query parsed by its page's schema, once and kept on the request: the cache plan asks first (its tags), the resolve reuses it. */
export function parsedSearch(request: { search?: ParsedSearch }, schema: SearchSchema, routeId: string, query: URLSearchParams): ParsedSearch {
  if (request.search) return request.search;
  try {
    request.search = { ok: true, value: parseSearch(schema, query, routeId) };
  } catch (error) {
    request.search = { ok: false, error };
  }
  return request.search;
}
