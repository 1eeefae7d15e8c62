import { Outlet, type PageProps } from "#outpost";
import type { load } from "./ParentLayout.server";

/** A layout whose loader data its child reads without a loader of its own. */
export default function ParentLayout({ data }: PageProps<"/diagnostics/parent", typeof load>) {
  return (
    <section aria-labelledby="parent-title">
      <h1 id="parent-title">Parent data</h1>
      <p>
        {"Layout loader served at "}
        <span id="layout-served-at">{data.servedAt}</span>
      </p>
      <Outlet />
    </section>
  );
}
