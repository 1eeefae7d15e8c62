import { readFileSync } from "node:fs";
import { Suspense, use } from "react";
import { _default, coerce, gte, int, object } from "zod/mini";
import type { LoadedRouteFile } from "#src/server/routing/app-routes";
import { route } from "#src/shared/routing/config";
import type { HeadTags, PageProps } from "#src/shared/routing/module";
import { httpError, notFound, type RedirectStatus, redirect } from "#src/shared/routing/signals";
import { eventStream } from "#src/server/events/event-stream";
import { loadAppRoutes } from "./app-routes";

/** Values that would break out of an inline script if serialised naively. */
export const EVIL = "</script><script>alert(1)</script> \u2028 \u2029 <!-- & -->";

const pageQuery = object({ page: _default(coerce.number().check(int(), gte(1, "page must be 1 or more")), 1) });

const pending = new Map<string, Promise<string>>();

/** A promise per render token, so React's retry after suspending sees the same one. */
function settleLater(token: string, ms: number, outcome: "resolve" | "reject" | "never") {
  let promise = pending.get(token);
  if (!promise) {
    promise = new Promise<string>((resolve, reject) => {
      if (outcome === "never") return;
      setTimeout(() => (outcome === "resolve" ? resolve("late content") : reject(new Error("late failure"))), ms);
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

export interface SessionShown {
  notice: string | null;
  /** `notice` read a second time by the same request. */
  again: string | null;
  user: string | null;
  padding: number;
}

/** Shows the session's `notice` (flashed) and `user`; a POST flashes `notice`, signs in (`user`) or stores `size` bytes. */
const sessionPage: LoadedRouteFile = {
  module: {
    default: ({ data }: PageProps<SessionShown>) => <pre id="session">{JSON.stringify(data)}</pre>,
  },
  server: {
    load: ({ session }): SessionShown => ({
      notice: session.get<string>("notice") ?? null,
      again: session.get<string>("notice") ?? null,
      user: session.get<string>("user") ?? null,
      padding: session.get<string>("padding")?.length ?? 0,
    }),
    action: ({ body, session }) => {
      const fields = body as Record<string, string>;
      if (fields.notice) session.flash("notice", fields.notice);
      if (fields.user) {
        session.regenerate();
        session.set("user", fields.user);
      }
      if (fields.size) session.set("padding", "x".repeat(Number(fields.size)));
      if (fields.intent === "clear") session.clear();
      return redirect("/test/session", 303);
    },
  },
};

/** How many times the loader below ran: route code that touched a session still being fetched runs again once. */
export const sessionLoaderRuns = { count: 0 };

const sessionRunsPage: LoadedRouteFile = {
  module: { default: ({ data }: PageProps<{ user: string | null }>) => <p id="session-user">{data.user ?? ""}</p> },
  server: {
    load: ({ session }) => {
      sessionLoaderRuns.count++;
      return { user: session.get<string>("user") ?? null };
    },
  },
};

const deferred = (outcome: Deferred["outcome"]) => () => ({ token: crypto.randomUUID(), outcome });

/** Test-only route files: a module and its server half, as the build would load them. */
const files: Record<string, LoadedRouteFile> = {
  "test/missing-item.tsx": { module: { default: () => null }, server: { load: () => notFound() } },
  "test/evil.tsx": {
    module: {
      default: ({ data }: PageProps<{ text: string }>) => <p id="evil">{data.text}</p>,
      head: ({ data }: PageProps<{ text: string }>): HeadTags => ({ title: data.text }),
    },
    server: { load: () => ({ text: EVIL }) },
  },
  "test/item.tsx": {
    module: {
      default: ({ data }: PageProps<{ id: string }>) => <p id="item">{data.id}</p>,
      head: ({ data }: PageProps<{ id: string }>): HeadTags => ({
        title: `Item ${data.id}`,
        description: `About item ${data.id}`,
        meta: [{ property: "og:title", content: `Item ${data.id}` }],
      }),
    },
    server: { load: ({ params }) => ({ id: params.id as string }) },
  },
  "test/search.tsx": {
    module: {
      default: ({ data }: PageProps<{ query: string | null; host: string }>) => <p id="search">{`${data.query} on ${data.host}`}</p>,
    },
    server: { load: ({ url }) => ({ query: url.searchParams.get("q"), host: url.host }) },
  },
  "test/slow.tsx": {
    module: { default: ({ data }: PageProps<{ waitedMs: number }>) => <p id="slow">{`waited ${data.waitedMs} ms`}</p> },
    server: {
      load: async ({ params }) => {
        const waitedMs = Number(params.ms);
        await new Promise((resolve) => setTimeout(resolve, waitedMs));
        return { waitedMs };
      },
    },
  },
  // Redirects wherever `?to=` says (with `?status=` when given), as a loader or as the action of a form.
  "test/redirect.tsx": {
    module: { default: () => <p id="not-redirected">stayed</p> },
    server: {
      load: ({ url }) =>
        url.searchParams.has("to") ? redirect(url.searchParams.get("to") as string, Number(url.searchParams.get("status") ?? 307) as RedirectStatus) : {},
      action: ({ url }) => redirect(url.searchParams.get("to") ?? "/"),
    },
  },
  // Answers with what it was given of the files it accepted, contents included.
  "test/upload.tsx": {
    module: { default: () => <p id="upload">upload</p> },
    server: {
      uploads: { maxFileBytes: 1_024, maxFiles: 2 },
      action: ({ files }) =>
        Object.fromEntries(
          Object.entries(files).map(([field, list]) => [
            field,
            list.map((file) => ({ name: file.name, type: file.type, size: file.size, text: readFileSync(file.path, "utf8") })),
          ]),
        ),
    },
  },
  // A query schema read by an action and by a resource route; one validating asynchronously is refused.
  "test/query-action.tsx": {
    module: { default: () => <p id="query-action">query action</p> },
    server: { searchParams: pageQuery, action: ({ search }) => ({ search }) },
  },
  "test/query-api.server.ts": { server: { searchParams: pageQuery, load: ({ search }) => ({ search }) } },
  "test/query-async.tsx": {
    module: { default: () => <p id="query-async">never shown</p> },
    server: { searchParams: { "~standard": { version: 1, vendor: "test", validate: async (value) => ({ value }) } }, load: () => ({}) },
  },
  "test/late.tsx": { module: { default: DeferredPage }, server: { load: deferred("resolve") } },
  "test/late-error.tsx": { module: { default: DeferredPage }, server: { load: deferred("reject") } },
  "test/hang.tsx": { module: { default: DeferredPage }, server: { load: deferred("never") } },
  "test/session.tsx": sessionPage,
  "test/session-runs.tsx": sessionRunsPage,
  // An event stream for signed-in visitors only: its middleware reads the session, as a loader's would.
  "test/members-stream.server.ts": {
    server: {
      middleware: [({ session }) => void (session.get("name") || httpError(401, { reason: "sign in first" }))],
      load: (context) => eventStream(context, "members"),
    },
  },
};

export const testRoutes = await loadAppRoutes({
  routes: [
    route("test/missing-item", "test/missing-item.tsx"),
    route("test/evil", "test/evil.tsx"),
    route("test/items/:id", "test/item.tsx"),
    route("test/search", "test/search.tsx"),
    route("test/slow/:ms", "test/slow.tsx"),
    route("test/redirect", "test/redirect.tsx"),
    route("test/upload", "test/upload.tsx"),
    route("test/late", "test/late.tsx"),
    route("test/query-action", "test/query-action.tsx"),
    route("test/query-api", "test/query-api.server.ts"),
    route("test/query-async", "test/query-async.tsx"),
    route("test/late-error", "test/late-error.tsx"),
    route("test/hang", "test/hang.tsx"),
    route("test/session", "test/session.tsx"),
    route("test/session-runs", "test/session-runs.tsx"),
    route("test/members-stream", "test/members-stream.server.ts"),
  ],
  files,
});
