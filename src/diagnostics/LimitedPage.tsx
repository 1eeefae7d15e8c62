import type { HeadTags } from "#outpost";

export const head = (): HeadTags => ({ title: "Rate limit · Diagnostics · Outpost" });

/** Shown while the visitor is within the limit; past it, the error component shows the 429. */
export default function LimitedPage() {
  return (
    <section aria-labelledby="limited-title">
      <h1 id="limited-title">Rate limit</h1>
      <p id="limited-ok">Within the limit: three visits a minute from one address.</p>
    </section>
  );
}
