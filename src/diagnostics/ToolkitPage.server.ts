import type { LoaderContext } from "#outpost";
import { maxLength, object, optional, string } from "zod/mini";

/** The filter's query: `?q=…`, at most 40 characters; a longer one answers 400, as any URL would. */
export const searchParams = object({
  q: optional(string().check(maxLength(40, "q must be at most 40 characters"))),
});

export function load({ search }: LoaderContext<"/diagnostics/toolkit", typeof searchParams>) {
  return { q: search.q ?? "" };
}
