import { Link, type LoaderData, type PageProps, Outlet } from "#outpost";
import type { load } from "./RevalidationLayout.server";

/** A layout with two children: moving between them runs only the child's loader. */
export default function RevalidationLayout({ data }: PageProps<LoaderData<typeof load>>) {
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
        </Link>
      </nav>
      <Outlet />
    </section>
  );
}
