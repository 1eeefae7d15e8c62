import { splitPath } from "./match";
import type { PagePattern } from "./register";
import type { ParamNames } from "./route-patterns";

/** What `href()` takes for a pattern's params: a value for each `:name` (and `*`), numbers written as they print. */
export type HrefParams<Pattern extends string> = { readonly [Name in ParamNames<Pattern>]: string | number };

/** What else a URL carries: its query, each value written as it prints (undefined ones left out). */
export interface HrefOptions {
  search?: Readonly<Record<string, string | number | boolean | undefined>>;
}

/** The params argument: required when the pattern has params; for one without, any param is an error naming the pattern. */
export type HrefArgs<Pattern extends string> = [ParamNames<Pattern>] extends [never]
  ? [params?: { readonly [name: string]: `${Pattern} takes no params` }, options?: HrefOptions]
  : [params: HrefParams<Pattern>, options?: HrefOptions];

/**
 * The URL of a page of the registered table: `href("/notes/:id", { id: 7 })` gives `/notes/7`,
 * `href("/notes", {}, { search: { page: 2 } })` gives `/notes?page=2`.
 * Each param is percent-encoded as one segment; a splat keeps its slashes. A pattern the table
 * lacks, or a missing or extra param, is a type error; a missing or empty value at run time
 * (plain JavaScript, casts) throws a TypeError naming the pattern and the param.
 */
export function href<const Pattern extends PagePattern>(pattern: Pattern, ...[params, options]: HrefArgs<Pattern>): string {
  const values = (params ?? {}) as Readonly<Record<string, string | number | undefined>>;
  const path = splitPath(pattern).map((segment) => {
    if (segment !== "*" && !segment.startsWith(":")) return segment;
    const name = segment === "*" ? "*" : segment.slice(1);
    const value = values[name];
    if (segment === "*") return value === undefined ? "" : splitPath(String(value)).map(encodeURIComponent).join("/");
    if (value === undefined || value === "") throw new TypeError(`href("${pattern}") needs a value for :${name}`);
    return encodeURIComponent(String(value));
  });
  return `/${path.filter((part) => part !== "").join("/")}${queryOf(options?.search)}`;
}

function queryOf(search: HrefOptions["search"]): string {
  if (!search) return "";
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(search)) if (value !== undefined) query.append(name, String(value));
  const text = query.toString();
  return text ? `?${text}` : "";
}
