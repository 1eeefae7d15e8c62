import { Suspense } from "react";
import { Await, type HeadTags, Link, type LoaderData, type PageProps } from "#outpost";
import type { load } from "./DeferredPage.server";

export const head = (): HeadTags => ({ title: "Deferred data · Diagnostics" });

export default function DeferredPage({ data }: PageProps<LoaderData<typeof load>>) {
  return (
    <section aria-labelledby="deferred-title">
      <h1 id="deferred-title">Deferred data</h1>
      <p id="fast">{data.fast}</p>
      <Suspense fallback={<p id="slow-fallback">Waiting for the slow part…</p>}>
        <Await resolve={data.slow} errorElement={<p id="slow-error">The slow value could not be loaded.</p>}>
          {(slow) => <p id="slow-value">{slow}</p>}
        </Await>
      </Suspense>
      <p>
        <Link href="/diagnostics/deferred?fail=1" id="to-failing">The same page with a value that fails</Link>
      </p>
    </section>
  );
}
