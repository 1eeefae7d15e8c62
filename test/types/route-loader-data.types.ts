import { type LoaderContext, useRouteLoaderData } from "#outpost";
import { type Equal, expectType } from "./assert";
import "./type-test-table";

// A layout's loader, as a child reads it.
const load = ({ params }: LoaderContext<"/type-tests/notes/:id">) => ({ id: params.id, title: "a note", servedAt: 1 });

// The data is inferred from the layout's load; undefined when that route is not matched.
export const read = () => {
  const data = useRouteLoaderData<typeof load>("/type-tests/notes/:id");
  expectType<Equal<typeof data, { id: string; title: string; servedAt: number } | undefined>>(true);
  return data;
};

// An async loader's data is awaited.
const loadAsync = async () => ({ count: 3 });
export const readAsync = () => {
  const data = useRouteLoaderData<typeof loadAsync>("/type-tests/notes");
  expectType<Equal<typeof data, { count: number } | undefined>>(true);
};

// A pattern the table does not have.
// @ts-expect-error -- Argument of type '"/type-tests/note/:id"' is not assignable to parameter of type RoutePattern
export const unknownPattern = () => useRouteLoaderData<typeof load>("/type-tests/note/:id");

// A field the layout's data does not have.
// @ts-expect-error -- Property 'author' does not exist on type '{ id: string; title: string; servedAt: number; }'
export const wrongField = () => useRouteLoaderData<typeof load>("/type-tests/notes/:id")?.author;
