import type { PageProps } from "#outpost";
import { useState } from "react";
import type { load } from "./HomePage.server";

export default function HomePage({ data }: PageProps<"/", typeof load>) {
  const [count, setCount] = useState(0);
  return (
    <section aria-labelledby="home-title">
      <h1 id="home-title">Welcome to Outpost</h1>
      <p id="home-greeting">{data.greeting}!</p>
      <p>
        A server-rendered React application on Koa. Its error reports reach Sentry through
        this site's own origin.
      </p>
      <p>
        <button type="button" id="counter" onClick={() => setCount((n) => n + 1)}>
          Clicked {count} {count === 1 ? "time" : "times"}
        </button>
      </p>
      <p className="muted">
        Rendered on the server at <time dateTime={data.renderedAt}>{data.renderedAt}</time>.
      </p>
    </section>
  );
}
