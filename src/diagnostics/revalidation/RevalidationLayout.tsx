import { Link, type LoaderData, type PageProps, Outlet, type ShouldRevalidateArgs, useRevalidator } from "#outpost";
import type { load } from "./RevalidationLayout.server";

/** `?still` in the next URL keeps this layout's data, whatever else changed. */
export function shouldRevalidate({ nextUrl, defaultShouldRevalidate }: ShouldRevalidateArgs): boolean {
  return nextUrl.searchParams.has("still") ? false : defaultShouldRevalidate;
}

/** A layout with two children: moving between them runs only the child's loader. */
export default function RevalidationLayout({ data }: PageProps<LoaderData<typeof load>>) {
  const { revalidate } = useRevalidator();
  return (
    <section aria-labelledby="revalidation-title">
      <h1 id="revalidation-title">Revalidation</h1>
      <p>
        {"Layout loader runs: "}
        <span id="layout-runs">{data.runs}</span>
      </p>
      <nav>
        <Link href="/diagnostics/revalidation/first" id="to-first">
          First child
        </Link>{" "}
        <Link href="/diagnostics/revalidation/second" id="to-second">
          Second child
        </Link>{" "}
        <Link href="/diagnostics/revalidation/second?tab=other" id="to-second-search">
          Second child, another search
        </Link>{" "}
        <Link href="/diagnostics/revalidation/first?still=1" id="to-first-still">
          First child, layout kept (shouldRevalidate)
        </Link>
      </nav>
      <button type="button" id="revalidate" onClick={() => void revalidate()}>
        Revalidate
      </button>
      <Outlet />
    </section>
  );
}
