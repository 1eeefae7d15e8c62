import type { ActionContext, LoaderContext, PagePattern, PageProps, Prerender, RouteMiddleware, RoutePattern } from "#outpost";
import type { Params } from "#src/shared/routing/match";
import { type Equal, expectType } from "./assert";
import "./type-test-table";

// Typed params: a route's full pattern gives its params, parents' included; a splat is "*".
expectType<Equal<LoaderContext<"/type-tests/notes/:id">["params"], { readonly id: string }>>(true);
expectType<Equal<ActionContext<"/type-tests/notes/:id/comments/:commentId">["params"], { readonly id: string; readonly commentId: string }>>(true);
expectType<Equal<PageProps<"/type-tests/files/*">["params"], { readonly "*": string }>>(true);
expectType<Equal<keyof PageProps<"/type-tests/notes/new">["params"], never>>(true);
expectType<Equal<Parameters<RouteMiddleware<"/type-tests/notes/:id">>[0]["params"], { readonly id: string }>>(true);

// Layouts are patterns of the table; only pages are link targets.
expectType<"/type-tests/notes/:id" extends RoutePattern ? true : false>(true);
expectType<"/type-tests/notes/:id" extends PagePattern ? true : false>(true);
expectType<"/type-tests/notes/:id/comments/:commentId" extends PagePattern ? true : false>(true);
expectType<Equal<Extract<"/type-tests/notes" | "/type-tests/files/*", PagePattern>, "/type-tests/notes" | "/type-tests/files/*">>(true);

// The older forms stay loose: data only, params as a record.
expectType<Equal<PageProps<{ a: number }>, { data: { a: number }; params: Params }>>(true);
expectType<Equal<LoaderContext["params"], Params>>(true);

// A page reads its params with no cast.
export const loader = ({ params }: LoaderContext<"/type-tests/notes/:id">): string => params.id;

// A param the route does not have.
// @ts-expect-error -- "/type-tests/notes/:id" has no :slug
export const wrongParam = ({ params }: LoaderContext<"/type-tests/notes/:id">): string => params.slug;

// A layout sees its own and its parents' params, not its children's.
// @ts-expect-error -- :commentId belongs to a child of "/type-tests/notes/:id"
export const childParam = ({ params }: PageProps<"/type-tests/notes/:id">): string => params.commentId;

// A pattern the table does not have.
// @ts-expect-error -- Type '"/type-tests/note/:id"' does not satisfy the constraint '… "/type-tests/notes/:id" …'
export type UnknownLoaderPattern = LoaderContext<"/type-tests/note/:id">;

// @ts-expect-error -- Type '() => …' does not satisfy the constraint '"unknown route pattern: /type-tests/note/:id"'
export type UnknownPagePattern = PageProps<"/type-tests/note/:id", () => { id: string }>;

// @ts-expect-error -- Property 'id' does not exist on type '"unknown route pattern: /type-tests/note/:id"'
export const unknownPageParams = ({ params }: PageProps<"/type-tests/note/:id">): string => params.id;

// An optional segment: the param may be absent, so it reads string | undefined.
expectType<Equal<LoaderContext<"/type-tests/:lang?/about">["params"], { readonly lang?: string | undefined }>>(true);
expectType<Equal<PageProps<"/type-tests/shop/:lang?/items/:id">["params"], { readonly id: string; readonly lang?: string | undefined }>>(true);
export const optionalParam = ({ params }: LoaderContext<"/type-tests/:lang?/about">): string => params.lang ?? "en";
// @ts-expect-error -- Type 'string | undefined' is not assignable to type 'string'
export const optionalAsString = ({ params }: LoaderContext<"/type-tests/:lang?/about">): string => params.lang;

// prerender: `true` only where the pattern has no params (an optional segment is one), a list otherwise.
export const prerenderPlain: Prerender<"/type-tests/notes/new"> = true;
export const prerenderList: Prerender<"/type-tests/notes/:id"> = () => [{ id: "1" }];
export const prerenderOptional: Prerender<"/type-tests/shop/:lang?/items/:id"> = async () => [{ id: "1" }, { lang: "fr", id: "1" }];
// @ts-expect-error a pattern with params must list the ones to build
export const prerenderTrueWithParams: Prerender<"/type-tests/notes/:id"> = true;
// @ts-expect-error a listed param must be one of the pattern's
export const prerenderUnknownParam: Prerender<"/type-tests/notes/:id"> = () => [{ slug: "x" }];
