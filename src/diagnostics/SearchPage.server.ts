import type { LoaderContext } from "#outpost";
import { _default, coerce, enum as oneOf, gte, int, object } from "zod/mini";

/** The page's query: `?page=N&sort=asc|desc`, both optional; anything else answers 400. */
export const searchParams = object({
  page: _default(coerce.number({ error: "page must be a number" }).check(int("page must be a whole number"), gte(1, "page must be 1 or more")), 1),
  sort: _default(oneOf(["asc", "desc"], { error: "sort must be asc or desc" }), "asc"),
});

export function load({ search }: LoaderContext<"/diagnostics/search", typeof searchParams>) {
  return { page: search.page, sort: search.sort };
}

// Links to the page (`href("/diagnostics/search", {}, { search })`) are typed by the schema.
declare module "#outpost" {
  interface RouteSearch {
    "/diagnostics/search": typeof searchParams;
  }
}
