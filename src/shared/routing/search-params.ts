import { HttpErrorSignal } from "./signals";

/** A Standard Schema's result (https://standardschema.dev): the value, or the issues. */
type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly { readonly message: string; readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined }[] };

/** Any Standard Schema (zod 4, Valibot, ArkType): what a route's `searchParams` export may be. */
export interface SearchSchema<Output = unknown> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined;
  };
}

/** What `search` is for a route's schema (`typeof searchParams`): its parsed output; `unknown` without one. */
export type SearchOf<Schema> = Schema extends SearchSchema<infer Output> ? Output : unknown;

/** One failed check of the query, as the error component gets them in `error.data.issues`. */
export interface SearchIssue {
  /** The query parameter (and any path below it), e.g. `["page"]`. */
  path: string[];
  message: string;
}

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
