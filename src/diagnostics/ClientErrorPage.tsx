import type { HeadTags } from "#outpost";
import { useState } from "react";

export const head = (): HeadTags => ({ title: "Client error diagnostic" });

export default function ClientErrorPage() {
  const [broken, setBroken] = useState(false);
  // A render error in the browser: the error boundary's page, with the feedback form, replaces this one.
  if (broken) throw new Error("diagnostic client render error");
  return (
    <section aria-labelledby="client-error-title">
      <h1 id="client-error-title">Client error diagnostic</h1>
      <p>The button throws an error in the browser, which should reach error reporting.</p>
      <button
        type="button"
        id="throw-client-error"
        onClick={() => {
          throw new Error("diagnostic client error");
        }}
      >
        Throw a client error
      </button>
      <button type="button" id="throw-render-error" onClick={() => setBroken(true)}>
        Break the page (render error)
      </button>
    </section>
  );
}
