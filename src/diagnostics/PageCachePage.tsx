import { Form, type HeadTags, type LoaderData, type PageProps } from "#outpost";
import type { load } from "./PageCachePage.server";

export const head = (): HeadTags => ({ title: "Page cache · Diagnostics" });

export default function PageCachePage({ data }: PageProps<LoaderData<typeof load>>) {
  return (
    <section>
      <h1>Page cache</h1>
      <p id="render-id">{data.renderId}</p>
      <p id="rendered-at">{data.renderedAt}</p>
      <Form id="revalidate-form">
        <button type="submit" name="intent" value="revalidate">
          Render afresh
        </button>
      </Form>
    </section>
  );
}
