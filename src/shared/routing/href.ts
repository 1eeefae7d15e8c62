import { parsePattern, type Segment, splitPath } from "./match";
import type { PagePattern, RouteSearch } from "./register";
import type { Flatten, OptionalParamNames, ParamNames, RequiredParamNames } from "./route-patterns";
import type { SearchOf } from "./search-schema";

type QueryValue = string | number | boolean | undefined;
type LooseSearch = Readonly<Record<string, QueryValue | readonly QueryValue[]>>;

/** A link's query: by the page's registered schema (every key optional, its output's types), else any plain values. */
export type HrefSearch<Pattern extends string> = Pattern extends keyof RouteSearch ? Readonly<Partial<SearchOf<RouteSearch[Pattern]>>> : LooseSearch;

/** What `href()` takes for a pattern's params: a value for each `:name` (and `*`), numbers written as they print; a `:name?` may be left out. */
export type HrefParams<Pattern extends string> = Flatten<
  { readonly [Name in RequiredParamNames<Pattern>]: string | number } & { readonly [Name in OptionalParamNames<Pattern>]?: string | number | undefined }
>;

/** What else a URL carries: its query, each value written as it prints (undefined ones left out, an array's items repeated). */
export interface HrefOptions<Pattern extends string = string> {
  search?: HrefSearch<Pattern>;
}

/**
 * The pattern argument: a page's full pattern, else a type naming the mistake, so the compiler's
 * message says "unknown route pattern" rather than listing the table's patterns cut short.
 */
export type HrefPattern<Pattern extends string> = Pattern extends PagePattern
  ? Pattern
  : `unknown route pattern: ${Pattern} (href() takes the full pattern of a page of the route table)`;

/** The params argument: required when the pattern has a required param (optional when all are `:name?`); for one without, any param is an error naming the pattern. */
export type HrefArgs<Pattern extends string> = [ParamNames<Pattern>] extends [never]
  ? [params?: { readonly [name: string]: `${Pattern} takes no params` }, options?: HrefOptions<Pattern>]
  : [RequiredParamNames<Pattern>] extends [never]
    ? [params?: HrefParams<Pattern>, options?: HrefOptions<Pattern>]
    : [params: HrefParams<Pattern>, options?: HrefOptions<Pattern>];

/**
 * The URL of a page of the registered table: `href("/notes/:id", { id: 7 })` gives `/notes/7`,
 * `href("/notes", {}, { search: { page: 2 } })` gives `/notes?page=2`.
 * Each param is percent-encoded as one segment; a splat keeps its slashes. A pattern the table
 * lacks, or a missing or extra param, is a type error; a missing or empty value at run time
 * (plain JavaScript, casts) throws a TypeError naming the pattern and the param.
 */
// `string & {}` keeps the table's patterns offered as completions while any string is inferred.
export function href<const Pattern extends PagePattern | (string & {})>(pattern: HrefPattern<Pattern>, ...[params, options]: HrefArgs<Pattern>): string {
  const parsed = parsedPattern(pattern);
  if (typeof parsed === "string") return `${parsed}${queryOf(options?.search)}`;
  const values = (params ?? {}) as Readonly<Record<string, string | number | undefined>>;
  const path = parsed.map((segment) => {
    if (segment.kind === "static") return segment.value;
    const value = values[segment.kind === "rest" ? "*" : segment.name];
    if (segment.kind === "rest") return value === undefined ? "" : splitPath(String(value)).map(encodeURIComponent).join("/");
    // An optional segment without a value is left out: `/:lang?/about` is `/about`.
    if (value === undefined || value === "") {
      if (segment.optional) return "";
      throw new TypeError(`href("${pattern}") needs a value for :${segment.name}`);
    }
    return encodeURIComponent(String(value));
  });
  return `/${path.filter((part) => part !== "").join("/")}${queryOf(options?.search)}`;
}

/** A pattern's segments, or its path when it has no params; a layout's links ask for the same few on every render. */
const parsedPatterns = new Map<string, string | readonly Segment[]>();
// Patterns come from code, so a handful; the bound only keeps made-up ones from growing memory.
const MAX_PARSED_PATTERNS = 1_000;

function parsedPattern(pattern: string): string | readonly Segment[] {
  let parsed = parsedPatterns.get(pattern);
  if (parsed !== undefined) return parsed;
  const segments = parsePattern(pattern);
  parsed = segments.every((segment) => segment.kind === "static") ? `/${segments.map((segment) => segment.value).join("/")}` : segments;
  if (parsedPatterns.size < MAX_PARSED_PATTERNS) parsedPatterns.set(pattern, parsed);
  return parsed;
}

function queryOf(search: object | undefined): string {
  if (!search) return "";
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(search)) {
    for (const each of Array.isArray(value) ? value : [value]) if (each !== undefined) query.append(name, String(each));
  }
  const text = query.toString();
  return text ? `?${text}` : "";
}
