import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoadedRouteFile } from "#src/server/routing/app-routes";
import { Outlet } from "#src/shared/navigation/Outlet";
import { route } from "#src/shared/routing/config";
import type { ErrorBoundaryProps, PageProps } from "#src/shared/routing/module";
import type { RequestContext } from "#src/shared/routing/request";
import { httpError, redirect } from "#src/shared/routing/signals";
import { loadAppRoutes } from "../../../support/app-routes";
import { documentPayload } from "../../../support/html";
import { send } from "../../../support/raw-http";
import { startTestApp, type TestApp } from "../../../support/test-app";

const Show = ({ data }: PageProps<unknown>) => <pre id="shown">{JSON.stringify(data)}</pre>;
const ShowError = ({ error }: ErrorBoundaryProps) => <p id="caught" data-status={error.status}>{JSON.stringify(error.data)}</p>;

/** Every field of the context, read destructured: a method that lost its `this` would throw here. */
function everything({ params, url, method, header, headers, body, clientIp, clientKey, cookies, response }: RequestContext) {
  response.setHeader("X-Loader", "ran");
  response.appendHeader("X-Many", "one");
  response.appendHeader("X-Many", "two");
  return {
    id: params.id,
    path: url.pathname,
    method,
    custom: header("X-Custom"),
    missing: header("x-nothing"),
    fromHeaders: headers["x-custom"],
    body: body ?? null,
    ip: clientIp,
    key: clientKey,
    cookie: cookies.get("plain") ?? null,
  };
}

const files: Record<string, LoadedRouteFile> = {
  "t/layout.tsx": {
    module: {
      default: ({ data }: PageProps<string>) => (
        <section data-layout={data}>
          <Outlet />
        </section>
      ),
      ErrorBoundary: ShowError,
    },
    server: { load: () => "layout data" },
  },
  "t/everything.tsx": {
    module: { default: Show },
    server: {
      load: everything,
      action: (context) => {
        const { body, header } = context;
        return { body, custom: header("x-custom"), all: everything(context) };
      },
    },
  },
  "t/forbidden.tsx": { module: { default: Show }, server: { load: () => httpError(403, { reason: "members only" }) } },
  "t/created.tsx": {
    module: { default: Show },
    server: {
      load: ({ response }) => {
        response.status(201);
        return "made";
      },
    },
  },
  "t/cookie-redirect.tsx": {
    module: { default: Show },
    server: {
      action: () =>
        redirect("/t/everything/1", {
          status: 303,
          headers: [
            ["Set-Cookie", "a=1; Path=/"],
            ["Set-Cookie", "b=2; Path=/"],
            ["X-Extra", "yes"],
          ],
        }),
    },
  },
  "t/session.tsx": {
    module: { default: Show },
    server: {
      load: ({ session }) => ({ name: session.get("name") ?? null, constructor: session.get("constructor") ?? null, proto: session.get("__proto__") ?? null }),
      // A new session in place of the old one: the values set after clear() are what is kept.
      action: ({ session, body }) => {
        const { name } = body as { name: string };
        session.clear();
        if (name) session.set("name", name);
        return redirect("/t/session", 303);
      },
    },
  },
  "t/session-list.tsx": {
    module: { default: Show },
    server: {
      // Changes the stored list in place, without set(): the next request must not see that.
      load: ({ session }) => {
        const list = session.get<string[]>("list") ?? [];
        list.push("seen");
        return list;
      },
      action: ({ session }) => {
        session.set("list", ["stored"]);
        return redirect("/t/session-list", 303);
      },
    },
  },
  "t/cached.tsx": {
    module: { default: Show },
    server: { load: () => "the same for everybody", headers: { "Cache-Control": "public, max-age=60" } },
  },
  "t/cached-personal.tsx": {
    module: { default: Show },
    server: { load: ({ cookies }) => cookies.get("plain") ?? "nobody", headers: { "Cache-Control": "public, max-age=60" } },
  },
};

const routes = await loadAppRoutes({
  routes: [
    route("t", "t/layout.tsx", [
      route("everything/:id", "t/everything.tsx"),
      route("forbidden", "t/forbidden.tsx"),
      route("created", "t/created.tsx"),
      route("cookie-redirect", "t/cookie-redirect.tsx"),
      route("session", "t/session.tsx"),
      route("session-list", "t/session-list.tsx"),
      route("cached", "t/cached.tsx"),
      route("cached-personal", "t/cached-personal.tsx"),
    ]),
  ],
  files,
});

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ SESSION_SECRET: "a-test-secret-that-is-long-enough-to-sign" }, { routes });
});
afterAll(() => app.close());

const BUILD = () => app.deps.assets.manifest.buildId;
const dataOf = async (path: string, init: RequestInit = {}) =>
  fetch(`${app.url}/__data${path}`, { ...init, headers: { "X-Outpost-Build": BUILD(), ...(init.headers as Record<string, string>) } });
const errorLines = () => app.logs.filter((line) => line.level >= 50);

describe("the request context", () => {
  it("gives a loader the request, every field working destructured, and lets it set response headers", async () => {
    const response = await fetch(`${app.url}/t/everything/7?q=1`, { headers: { "X-Custom": "hello", Cookie: "plain=choc" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-loader")).toBe("ran");
    expect(response.headers.get("x-many")).toBe("one, two");
    const payload = documentPayload(await response.text());
    expect(payload.state.data["t/everything"]).toEqual({
      id: "7",
      path: "/t/everything/7",
      method: "GET",
      custom: "hello",
      missing: "",
      fromHeaders: "hello",
      body: null,
      ip: "127.0.0.1",
      key: "127.0.0.1",
      cookie: "choc",
    });
  });

  it("gives an action the same context: `({ body, header })` destructured works", async () => {
    const response = await fetch(`${app.url}/t/everything/7`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Custom": "posted" },
      body: "note=hi",
    });
    expect(response.status).toBe(200);
    const payload = documentPayload(await response.text());
    expect(payload.state.actionData).toMatchObject({ body: { note: "hi" }, custom: "posted", all: { method: "POST", body: { note: "hi" } } });
    expect(errorLines()).toEqual([]);
  });

  it("lets a loader choose the page's status", async () => {
    const response = await fetch(`${app.url}/t/created`);
    expect(response.status).toBe(201);
    const data = await (await dataOf("/t/created")).json();
    expect(data).toMatchObject({ kind: "state", status: 201 });
  });
});

describe("the session of the request context", () => {
  const sessionData = async (cookie: string) =>
    (await (await dataOf("/t/session", { headers: { Cookie: cookie } })).json()).state.data["t/session"];
  const submit = (name: string, cookie = "") =>
    fetch(`${app.url}/t/session`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
      body: new URLSearchParams({ name }),
      redirect: "manual",
    });
  const cookiesOf = (response: Response) =>
    response.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");

  // `constructor` stays null: the values have no prototype whose members a key could name.
  it("keeps what is set after clear(), and removes the cookie when clear() leaves nothing", async () => {
    const first = await submit("Ada");
    expect(first.status).toBe(303);
    const ada = cookiesOf(first);
    expect(await sessionData(ada)).toEqual({ name: "Ada", constructor: null, proto: null });
    const renamed = cookiesOf(await submit("Grace", ada));
    expect(await sessionData(renamed)).toEqual({ name: "Grace", constructor: null, proto: null });
    const ended = await submit("", renamed);
    expect(ended.headers.getSetCookie()[0]).toMatch(/^outpost\.session=; path=\/; expires=Thu, 01 Jan 1970/);
  });

  it("never shares a value that is an object between requests, even under the same Cookie header", async () => {
    const stored = await fetch(`${app.url}/t/session-list`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "x=1", redirect: "manual" });
    const cookie = cookiesOf(stored);
    for (let i = 0; i < 2; i++) {
      const data = await (await dataOf("/t/session-list", { headers: { Cookie: cookie } })).json();
      expect(data.state.data["t/session-list"]).toEqual(["stored", "seen"]);
    }
  });
});

describe("statuses and headers from routes", () => {
  it("answers httpError(403, data) with the nearest error component, { status, data }, neither logged nor reported", async () => {
    const before = app.logs.length;
    const response = await fetch(`${app.url}/t/forbidden`);
    expect(response.status).toBe(403);
    const html = await response.text();
    expect(html).toContain('data-layout="layout data"');
    expect(html).toMatch(/<p id="caught" data-status="403">\{&quot;reason&quot;:&quot;members only&quot;\}<\/p>/);
    expect(app.logs.slice(before).filter((line) => line.level >= 40)).toEqual([]);
    const data = await (await dataOf("/t/forbidden")).json();
    expect(data).toMatchObject({ kind: "state", status: 403, state: { error: { error: { status: 403, data: { reason: "members only" } } } } });
  });

  it("carries a redirect's headers, several Set-Cookie included, on the page and on the data request", async () => {
    const post = { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "x=1", redirect: "manual" } as const;
    const page = await fetch(`${app.url}/t/cookie-redirect`, post);
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/t/everything/1");
    expect(page.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(page.headers.get("x-extra")).toBe("yes");
    const data = await dataOf("/t/cookie-redirect", post);
    expect(await data.json()).toMatchObject({ kind: "redirect", status: 303, location: "/t/everything/1" });
    expect(data.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
  });

  it("gives a page with a public cache policy an ETag, and answers If-None-Match with 304 and no body", async () => {
    const first = await fetch(`${app.url}/t/cached`);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("public, max-age=60");
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    const body = await first.text();
    const again = await fetch(`${app.url}/t/cached`);
    expect(again.headers.get("etag")).toBe(etag);
    // The same but for the nonce, fresh per response.
    const withoutNonce = (html: string) => html.replaceAll(/nonce="[^"]*"/g, "nonce");
    expect(withoutNonce(await again.text())).toBe(withoutNonce(body));
    // Raw HTTP: fetch adds Cache-Control: no-cache to a conditional request, as a reload does.
    const revalidated = await send(Number(new URL(app.url).port), "/t/cached", { method: "GET", headers: { "If-None-Match": etag as string } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
  });

  it("keeps a page that read a cookie out of shared caches, whatever its route says", async () => {
    const response = await fetch(`${app.url}/t/cached-personal`, { headers: { Cookie: "plain=x" } });
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.get("vary")).toContain("Cookie");
    expect(response.headers.get("etag")).toBeNull();
    await response.body?.cancel();
  });
});
