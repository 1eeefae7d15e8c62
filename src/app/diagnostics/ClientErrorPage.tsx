import type { HeadTags } from "../../shared/routing/module";

export const head = (): HeadTags => ({ title: "Client error diagnostic" });

export default function ClientErrorPage() {
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
    </section>
  );
}
