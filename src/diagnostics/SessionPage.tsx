import { Form, type HeadTags, Link, type LoaderData, type PageProps } from "#outpost";
import type { load } from "./SessionPage.server";

export const head = (): HeadTags => ({ title: "Session · Diagnostics" });

/** The session at work: a visit counter, a name a form stores, a flashed message, and a button that ends the session. */
export default function SessionPage({ data }: PageProps<LoaderData<typeof load>>) {
  return (
    <section>
      <h1>Session diagnostics</h1>
      {data.flash === null ? null : (
        <p id="session-flash" role="status">
          {data.flash}
        </p>
      )}
      <p>
        Visits in this session: <span id="visits">{data.visits}</span>
      </p>
      <p>
        Name: <span id="session-name">{data.name}</span>
        {data.name ? ` (${data.greeting}, ${data.name}!)` : null}
      </p>
      <Form id="session-form">
        <label htmlFor="session-name-input">Name</label>
        <input id="session-name-input" name="name" defaultValue={data.name} />
        <button type="submit">Remember my name</button>
      </Form>
      <Form id="session-flash-form">
        <input type="hidden" name="intent" value="flash" />
        <label htmlFor="session-flash-input">Message</label>
        <input id="session-flash-input" name="message" required />
        <button type="submit">Flash it</button>
      </Form>
      <Form id="session-clear-form">
        <button type="submit" name="intent" value="clear">
          End the session
        </button>
      </Form>
      <p>
        <Link href="/diagnostics/guarded/inner">A page only for named visitors</Link>
      </p>
    </section>
  );
}
