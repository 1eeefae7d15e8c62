import { type HeadTags, href, Link } from "#outpost";

export const head = (): HeadTags => ({ title: "Page not found · Outpost" });

export default function NotFoundPage() {
  return (
    <section aria-labelledby="not-found-title">
      <h1 id="not-found-title">Page not found</h1>
      <p>
        There is nothing at this address. <Link href={href("/")}>Go to the home page</Link>.
      </p>
    </section>
  );
}
