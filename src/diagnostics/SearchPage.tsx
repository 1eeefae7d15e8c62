import { href, Link, type PageProps } from "#outpost";
import type { load } from "./SearchPage.server";

/** A query validated by the page's schema: typed values with defaults, a 400 for a bad one. */
export default function SearchPage({ data }: PageProps<"/diagnostics/search", typeof load>) {
  return (
    <section aria-labelledby="search-title">
      <h1 id="search-title">Search params</h1>
      <p>
        {"Page "}
        <span id="search-page">{data.page}</span>
        {", sorted "}
        <span id="search-sort">{data.sort}</span>
      </p>
      <nav>
        <Link href={href("/diagnostics/search", {}, { search: { page: 2 } })} id="search-page-2">
          Page 2
        </Link>{" "}
        <Link href={href("/diagnostics/search", {}, { search: { page: data.page, sort: data.sort === "asc" ? "desc" : "asc" } })} id="search-flip">
          Flip the order
        </Link>{" "}
        <Link href={`${href("/diagnostics/search")}?page=0`} id="search-bad">
          A bad query (page 0)
        </Link>
      </nav>
    </section>
  );
}
