import type { HeadTags, LoaderData, PageProps } from "#outpost";
import type { load } from "./PrerenderedPage.server";

export const head = (): HeadTags => ({ title: "Prerendered · Diagnostics" });

export default function PrerenderedPage({ data }: PageProps<LoaderData<typeof load>>) {
  return (
    <section>
      <h1>Prerendered page</h1>
      <p>Rendered by the build; served from it without running its loader.</p>
      <p id="built-at">{data.builtAt}</p>
    </section>
  );
}
