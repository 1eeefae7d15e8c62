import { href, useNavigate, useParams } from "#outpost";
import type { Params } from "#src/shared/routing/match";
import { type Equal, expectType } from "./assert";
import "./type-test-table";

// useParams() typed by a pattern of the table, as useRouteLoaderData is.
export const byArgument = () => {
  const params = useParams("/type-tests/notes/:id/comments/:commentId");
  expectType<Equal<typeof params, { readonly id: string; readonly commentId: string }>>(true);
};
export const byTypeArgument = () => {
  const params = useParams<"/type-tests/notes/:id">();
  expectType<Equal<typeof params, { readonly id: string }>>(true);
};
// Without a pattern: the page's own, loosely typed.
export const loose = () => {
  const params = useParams();
  expectType<Equal<typeof params, Params>>(true);
};

// @ts-expect-error -- '"/type-tests/note/:id"' is not assignable to parameter of type RoutePattern
export const unknownPattern = () => useParams("/type-tests/note/:id");

// @ts-expect-error -- Property 'slug' does not exist on type '{ id: string; }'
export const wrongParam = () => useParams("/type-tests/notes/:id").slug;

// navigate() takes what a <Link href> takes (href() builds it from the table), or a history delta.
export const go = () => {
  const navigate = useNavigate();
  const done = navigate(href("/type-tests/notes/:id", { id: 3 }), { replace: true, preventScrollReset: true, state: { from: "list" }, viewTransition: true });
  expectType<Equal<typeof done, Promise<void>>>(true);
  navigate(-1);
  // @ts-expect-error -- a history delta takes no options
  navigate(-1, { replace: true });
  // @ts-expect-error -- 'push' does not exist in type 'NavigateOptions'
  void navigate("/type-tests/notes", { push: true });
};
