import type { HeadTags, LoaderData, PageProps } from "#outpost";
import type { load } from "./CachedPage.server";

export const head = (): HeadTags => ({ title: "Cached · Diagnostics" });

export default function CachedPage({ data }: PageProps<LoaderData<typeof load>>) {
  return (
    <section>
      <h1>Cached page</h1>
      <p id="cached-note">{data.note}</p>
    </section>
  );
}
