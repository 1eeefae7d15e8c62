import { type HrefParams, type HrefPattern, href } from "#outpost";
import { redirect } from "#outpost/server";
import { type Equal, expectType } from "./assert";
import "./type-test-table";

// A pattern without params takes none; with params, each one, strings or numbers.
expectType<Equal<ReturnType<typeof href>, string>>(true);
export const list = (): string => href("/type-tests/notes");
export const note = (): string => href("/type-tests/notes/:id", { id: 7 });
export const comment = (): string => href("/type-tests/notes/:id/comments/:commentId", { id: "a", commentId: 2 });
export const file = (): string => href("/type-tests/files/*", { "*": "a/b.txt" });
expectType<Equal<HrefParams<"/type-tests/notes/:id">, { readonly id: string | number }>>(true);

// What href() returns goes wherever a URL string does.
export const moved = (): never => redirect(href("/type-tests/notes/:id", { id: 1 }), 303);

// A resource route is a URL too: for fetcher.load(), a download link, a redirect.
export const resource = (): string => href("/type-tests/api/notes");

// An unknown pattern is an error that says so and names it, not the table's patterns cut short.
// @ts-expect-error -- Argument of type '"/type-tests/note/:id"' is not assignable to parameter of type '"unknown route pattern: /type-tests/note/:id (href() takes …)"'
export const unknownPattern = (): string => href("/type-tests/note/:id", { id: 1 });
expectType<
  Equal<HrefPattern<"/type-tests/note/:id">, "unknown route pattern: /type-tests/note/:id (href() takes the full pattern of a page of the route table)">
>(true);
expectType<Equal<HrefPattern<"/type-tests/notes/:id">, "/type-tests/notes/:id">>(true);

// A layout alone is no page to link to.
// @ts-expect-error -- '"/type-tests/notes/:id/comments"' is not assignable to '"unknown route pattern: /type-tests/notes/:id/comments (…)"'
export const layoutOnly = (): string => href("/type-tests/notes/:id/comments", { id: 1 });

// A string the compiler cannot read as a pattern is refused too.
const computed: string = "/type-tests/notes";
// @ts-expect-error -- 'string' is not assignable to '`unknown route pattern: ${string} (…)`'
export const computedPattern = (): string => href(computed);

// @ts-expect-error -- Property 'id' is missing in type '{}' but required in type 'HrefParams<"/type-tests/notes/:id">'
export const missingParam = (): string => href("/type-tests/notes/:id", {});

// @ts-expect-error -- Expected 2 arguments, but got 1
export const noParams = (): string => href("/type-tests/notes/:id");

// @ts-expect-error -- Object literal may only specify known properties, and 'slug' does not exist in type 'HrefParams<"/type-tests/notes/:id">'
export const extraParam = (): string => href("/type-tests/notes/:id", { id: 1, slug: "x" });

// @ts-expect-error -- Type 'string' is not assignable to type '"/type-tests/notes takes no params"'
export const paramOnStatic = (): string => href("/type-tests/notes", { id: "1" });

// An optional segment may be given or left out (params and all, when it is the only one); a required one beside it may not.
export const aboutWithout = (): string => href("/type-tests/:lang?/about", {});
export const aboutBare = (): string => href("/type-tests/:lang?/about");
export const aboutWith = (): string => href("/type-tests/:lang?/about", { lang: "en" });
export const aboutMaybe = (lang: string | undefined): string => href("/type-tests/:lang?/about", { lang });
export const shopItem = (): string => href("/type-tests/shop/:lang?/items/:id", { id: 3 });
expectType<Equal<HrefParams<"/type-tests/shop/:lang?/items/:id">, { readonly id: string | number; readonly lang?: string | number | undefined }>>(true);
// @ts-expect-error -- Property 'id' is missing in type '{ lang: string; }' but required in type 'HrefParams<…>'
export const shopItemWithoutId = (): string => href("/type-tests/shop/:lang?/items/:id", { lang: "en" });
// @ts-expect-error -- Object literal may only specify known properties, and 'locale' does not exist in type 'HrefParams<"/type-tests/:lang?/about">'
export const aboutWrongName = (): string => href("/type-tests/:lang?/about", { locale: "en" });
