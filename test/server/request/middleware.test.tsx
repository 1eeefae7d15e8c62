import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoadedRouteFile } from "#src/server/routing/app-routes";
import { route } from "#src/shared/routing/config";
import { Outlet } from "#src/shared/navigation/Outlet";
import type { ErrorBoundaryProps, PageProps } from "#src/shared/routing/module";
import { requestValue } from "#src/server/routing/request-value";
import { httpError, redirect } from "#src/shared/routing/signals";
import { loadAppRoutes } from "../../support/app-routes";
import { startTestApp, type TestApp } from "../../support/test-app";

const order: string[] = [];
const user = requestValue<{ name: string }>("user");

const Layout = () => <Outlet />;
const Show = ({ data }: PageProps<unknown>) => <pre id="shown">{JSON.stringify(data)}</pre>;
const Caught = ({ error }: ErrorBoundaryProps) => <p id="caught" data-status={error.status ?? 500} />;

/** outer (error component) > inner > page; each step's middleware and loader record when they ran. */
const files: Record<string, LoadedRouteFile> = {
  "m/outer.tsx": {
    module: { default: Layout, ErrorBoundary: Caught },
    server: {
      middleware: [
        async ({ header }) => {
          order.push("outer middleware");
          // Kept: a middleware that takes a while, so that a step started before it ended would show in the order.
          await new Promise((resolve) => setTimeout(resolve, 20));
          if (header("x-stop") === "redirect") redirect("/elsewhere", { status: 302, headers: { "Set-Cookie": "why=stopped; Path=/" } });
        },
      ],
      load: () => {
        order.push("outer loader");
        return "outer";
      },
    },
  },
  "m/inner.tsx": {
    module: { default: Layout },
    server: {
      middleware: [
        ({ header, values }) => {
          order.push("inner middleware");
          if (header("x-stop") === "forbid") httpError(403, { reason: "no" });
          if (header("x-stop") === "inner-redirect") redirect("/inner-elsewhere");
          if (header("x-stop") === "crash") throw new Error("middleware failed");
          values.set(user, { name: header("x-user") || "anonymous" });
        },
      ],
      load: () => {
        order.push("inner loader");
        return "inner";
      },
    },
  },
  "m/page.tsx": {
    module: { default: Show },
    server: {
      load: ({ values }) => {
        order.push("page loader");
        return values.get(user);
      },
      action: ({ values }) => ({ posted: values.get(user).name }),
    },
  },
};

const routes = await loadAppRoutes({ routes: [route("m", "m/outer.tsx", [route("in", "m/inner.tsx", [route("page", "m/page.tsx")])])], files });

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({}, { routes });
});
afterAll(() => app.close());

const get = (stop = "", extra: Record<string, string> = {}) => {
  order.length = 0;
  return fetch(`${app.url}/m/in/page`, { headers: { "X-Stop": stop, ...extra }, redirect: "manual" });
};

describe("route middleware", () => {
  it("runs root to leaf, one after another, before any loader; loaders read the typed values it set", async () => {
    const response = await get("", { "X-User": "Ada" });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("{&quot;name&quot;:&quot;Ada&quot;}");
    expect(order.slice(0, 2)).toEqual(["outer middleware", "inner middleware"]);
    expect(order.slice(2).sort()).toEqual(["inner loader", "outer loader", "page loader"]);
  });

  it("runs before an action too, which reads the same values", async () => {
    order.length = 0;
    const response = await fetch(`${app.url}/m/in/page`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-User": "Grace" },
      body: "a=1",
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Grace");
    expect(order.slice(0, 2)).toEqual(["outer middleware", "inner middleware"]);
  });

  it("stops the request with a redirect (headers included): no loader runs", async () => {
    const response = await get("redirect");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/elsewhere");
    expect(response.headers.getSetCookie()).toEqual(["why=stopped; Path=/"]);
    expect(order).toEqual(["outer middleware"]);
  });

  it("stops the request with a deeper middleware's redirect too: no loader at all runs, and a POST's redirect is 303", async () => {
    const response = await get("inner-redirect");
    expect(response.status).toBe(307);
    expect(order).toEqual(["outer middleware", "inner middleware"]);
    const posted = await fetch(`${app.url}/m/in/page`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Stop": "inner-redirect" },
      body: "a=1",
      redirect: "manual",
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get("location")).toBe("/inner-elsewhere");
  });

  it("stops the request with an httpError shown by the error component above it: only the loaders that still render run", async () => {
    const response = await get("forbid");
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('<p id="caught" data-status="403">');
    expect(order).toEqual(["outer middleware", "inner middleware", "outer loader"]);
  });

  it("answers a middleware's error as a loader's: 500 in the error component above, reported once", async () => {
    const before = app.logs.filter((line) => line.level >= 50).length;
    const response = await get("crash");
    expect(response.status).toBe(500);
    expect(await response.text()).toContain('<p id="caught" data-status="500">');
    expect(order).not.toContain("page loader");
    expect(app.logs.filter((line) => line.level >= 50).length - before).toBe(1);
  });

  it("also runs for a navigation's data request, which follows a middleware's redirect", async () => {
    order.length = 0;
    const response = await fetch(`${app.url}/__data/m/in/page`, { headers: { "X-Outpost-Build": app.deps.assets.manifest.buildId, "X-Stop": "redirect" } });
    expect(await response.json()).toMatchObject({ kind: "redirect", location: "/elsewhere", status: 302 });
    expect(response.headers.getSetCookie()).toEqual(["why=stopped; Path=/"]);
    expect(order).toEqual(["outer middleware"]);
  });
});

describe("the app's own middleware (its app.server.ts)", () => {
  const seen = requestValue<string>("seen");
  let withApp: TestApp;
  beforeAll(async () => {
    const appRoutes = await loadAppRoutes({
      routes: [route("m", "m/outer.tsx", [route("in", "m/inner.tsx", [route("page", "m/page.tsx")])])],
      files,
      app: {
        middleware: [
          ({ header, values }) => {
            order.push("app middleware");
            if (header("x-stop") === "app") httpError(401, { reason: "sign in" });
            values.set(seen, "by the app");
          },
        ],
      },
    });
    withApp = await startTestApp({}, { routes: appRoutes });
  });
  afterAll(() => withApp.close());

  it("runs first, for every route, the not-found page included", async () => {
    order.length = 0;
    const page = await fetch(`${withApp.url}/m/in/page`);
    expect(page.status).toBe(200);
    expect(order.slice(0, 3)).toEqual(["app middleware", "outer middleware", "inner middleware"]);
    order.length = 0;
    const missing = await fetch(`${withApp.url}/nowhere`);
    expect(missing.status).toBe(404);
    expect(order).toEqual(["app middleware"]);
  });

  it("stops a request at the root's level: the root layout's error component shows it, no route's middleware or loader runs", async () => {
    order.length = 0;
    const response = await fetch(`${withApp.url}/m/in/page`, { headers: { "X-Stop": "app" } });
    expect(response.status).toBe(401);
    expect(await response.text()).toContain('data-status="401"');
    expect(order).toEqual(["app middleware"]);
  });
});

describe("the guarded diagnostics pages", () => {
  let diagnostics: TestApp;
  beforeAll(async () => {
    diagnostics = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", SESSION_SECRET: "a-secret-for-the-guarded-pages-0000000" });
  });
  afterAll(() => diagnostics.close());

  it("send a visitor without a name to the session page, without running the child's loader", async () => {
    const response = await fetch(`${diagnostics.url}/diagnostics/guarded/inner`, { redirect: "manual" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/diagnostics/session");
    expect(diagnostics.logs.filter((line) => line.level >= 50)).toEqual([]);
  });

  it("show a named visitor's name in #guarded-name", async () => {
    const named = await fetch(`${diagnostics.url}/diagnostics/session`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "name=Ada",
      redirect: "manual",
    });
    const cookie = named.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const response = await fetch(`${diagnostics.url}/diagnostics/guarded/inner`, { headers: { Cookie: cookie } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<span id="guarded-name">Ada</span>');
  });

  it("answer /diagnostics/forbidden with 403 and [data-status=\"403\"], no error logged", async () => {
    const response = await fetch(`${diagnostics.url}/diagnostics/forbidden`);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('<p id="route-error" data-status="403">');
    expect(diagnostics.logs.filter((line) => line.level >= 50)).toEqual([]);
  });
});
