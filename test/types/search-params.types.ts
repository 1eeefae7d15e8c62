import { type ActionContext, href, type LoaderContext, type SearchOf } from "#outpost";
import { _default, coerce, enum as oneOf, gte, int, object, optional, string } from "zod/mini";
import { type Equal, expectType } from "./assert";
import "./type-test-table";

const searchParams = object({
  page: _default(coerce.number().check(int(), gte(1)), 1),
  sort: _default(oneOf(["asc", "desc"]), "asc"),
  q: optional(string()),
});

// The schema's output, defaults applied: page is a number, never undefined.
expectType<Equal<SearchOf<typeof searchParams>, { page: number; sort: "asc" | "desc"; q?: string | undefined }>>(true);
expectType<Equal<LoaderContext<"/type-tests/notes", typeof searchParams>["search"]["page"], number>>(true);
expectType<Equal<ActionContext<"/type-tests/notes", typeof searchParams>["search"]["sort"], "asc" | "desc">>(true);

// Params and search together.
export const load = ({ params, search }: LoaderContext<"/type-tests/notes/:id", typeof searchParams>) => ({ id: params.id, page: search.page });

// A key the schema does not have.
// @ts-expect-error -- Property 'limit' does not exist on type '{ page: number; sort: "asc" | "desc"; q?: string | undefined; }'
export const unknownKey = ({ search }: LoaderContext<"/type-tests/notes", typeof searchParams>) => search.limit;

// Without a schema, search is unknown: nothing can be read from it unchecked.
// @ts-expect-error -- 'search' is of type 'unknown'
export const noSchema = ({ search }: LoaderContext<"/type-tests/notes">) => search.page;

// Something that is no Standard Schema.
// @ts-expect-error -- Type '{ page: number; }' does not satisfy the constraint 'SearchSchema<unknown> | undefined'
export type NotASchema = LoaderContext<"/type-tests/notes", { page: number }>;

// A page's schema registered for links: href()'s search is typed by it, every key optional.
declare module "#outpost" {
  interface RouteSearch {
    "/type-tests/notes": typeof searchParams;
  }
}
export const withQuery = (): string => href("/type-tests/notes", {}, { search: { page: 2, sort: "desc" } });
export const defaultsLeftOut = (): string => href("/type-tests/notes", {}, { search: {} });
// @ts-expect-error -- Type 'string' is not assignable to type 'number'
export const wrongQueryType = (): string => href("/type-tests/notes", {}, { search: { page: "2" } });
// @ts-expect-error -- Type '"up"' is not assignable to type '"asc" | "desc" | undefined'
export const wrongQueryValue = (): string => href("/type-tests/notes", {}, { search: { sort: "up" } });
// @ts-expect-error -- Object literal may only specify known properties, and 'limit' does not exist
export const unknownQueryKey = (): string => href("/type-tests/notes", {}, { search: { limit: 5 } });

// A page without a registered schema takes plain values (strings, numbers, booleans, arrays of them).
export const withParamsAndQuery = (): string => href("/type-tests/notes/:id", { id: 1 }, { search: { page: 2, tag: ["a", "b"] } });
// @ts-expect-error -- Type '{ n: number; }' is not assignable to type 'QueryValue | readonly QueryValue[]'
export const nestedQuery = (): string => href("/type-tests/notes/new", {}, { search: { filter: { n: 1 } } });
