import { Suspense, use } from "react";
import type { PageProps } from "../../src/shared/routing/route";
import { defineRoute } from "../../src/shared/routing/route";
import { notFound } from "../../src/shared/routing/signals";
import { routes } from "../../src/shared/routes";

/** Values that would break out of an inline script if serialised naively. */
export const EVIL = "</script><script>alert(1)</script> \u2028 \u2029 <!-- & -->";

const pending = new Map<string, Promise<string>>();

/** A promise per render token, so React's retry after suspending sees the same one. */
function settleLater(token: string, ms: number, outcome: "resolve" | "reject" | "never") {
  let promise = pending.get(token);
  if (!promise) {
    promise = new Promise<string>((resolve, reject) => {
      if (outcome === "never") return;
      setTimeout(
        () => (outcome === "resolve" ? resolve("late content") : reject(new Error("late failure"))),
        ms,
      );
    });
    promise.catch(() => {});
    pending.set(token, promise);
  }
  return promise;
}

interface Deferred {
  token: string;
  outcome: "resolve" | "reject" | "never";
}

function Late({ token, outcome }: Deferred) {
  return <p id="late">{use(settleLater(token, 400, outcome))}</p>;
}

function DeferredPage({ data }: PageProps<Deferred>) {
  return (
    <section>
      <h1>Deferred</h1>
      <Suspense fallback={<p id="fallback">loading</p>}>
        <Late {...data} />
      </Suspense>
    </section>
  );
}

const deferred = (outcome: Deferred["outcome"]) => () => ({
  token: crypto.randomUUID(),
  outcome,
});

export const testRoutes = [
  ...routes,
  defineRoute({
    path: "/test/missing-item",
    title: "never",
    component: () => null,
    load: () => notFound(),
  }),
  defineRoute<{ text: string }>({
    path: "/test/evil",
    title: (data) => data.text,
    component: ({ data }) => <p id="evil">{data.text}</p>,
    load: () => ({ text: EVIL }),
  }),
  defineRoute<{ id: string }>({
    path: "/test/items/:id",
    title: "Item",
    component: ({ data }) => <p id="item">{data.id}</p>,
    load: ({ params }) => ({ id: params.id as string }),
  }),
  defineRoute<{ query: string | null; host: string }>({
    path: "/test/search",
    title: "Search",
    component: ({ data }) => <p id="search">{`${data.query} on ${data.host}`}</p>,
    load: ({ url }) => ({ query: url.searchParams.get("q"), host: url.host }),
  }),
  defineRoute<{ waitedMs: number }>({
    path: "/test/slow/:ms",
    title: "Slow",
    component: ({ data }) => <p id="slow">{`waited ${data.waitedMs} ms`}</p>,
    load: async ({ params }) => {
      const waitedMs = Number(params.ms);
      await new Promise((resolve) => setTimeout(resolve, waitedMs));
      return { waitedMs };
    },
  }),
  defineRoute({ path: "/test/late", title: "Late", component: DeferredPage, load: deferred("resolve") }),
  defineRoute({ path: "/test/late-error", title: "Late error", component: DeferredPage, load: deferred("reject") }),
  defineRoute({ path: "/test/hang", title: "Hang", component: DeferredPage, load: deferred("never") }),
];
