import type { HeadTags, LoaderData, PageProps } from "#outpost";
import type { load } from "./GuardedInner.server";

export const head = (): HeadTags => ({ title: "Guarded · Diagnostics" });

export default function GuardedInner({ data }: PageProps<LoaderData<typeof load>>) {
  return (
    <section>
      <h1>Guarded page</h1>
      <p>
        Only for named visitors: <span id="guarded-name">{data.name}</span>
      </p>
    </section>
  );
}
