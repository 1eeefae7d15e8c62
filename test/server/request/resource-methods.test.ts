import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppRoutes, type LoadedRouteFile } from "#src/server/routing/app-routes";
import { route } from "#src/shared/routing/config";
import { httpError, redirect } from "#src/shared/routing/signals";
import { loadAppRoutes } from "../../support/app-routes";
import { send } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";

// Resource routes with a handler per method, besides the diagnostics' /diagnostics/api/items/:id.
const files: Record<string, LoadedRouteFile> = {
  "m/post-only.server.ts": { server: { POST: ({ body }) => ({ created: body }) } },
  "m/signals.server.ts": {
    server: {
      GET: ({ search, url }) => ({ search: search ?? null, q: url.searchParams.get("q") }),
      PUT: () => httpError(409, { conflict: true }),
      DELETE: () => redirect("/m/post-only", 303),
    },
  },
};
const routes = await loadAppRoutes({ routes: [route("m/post-only", "m/post-only.server.ts"), route("m/signals", "m/signals.server.ts")], files });

let app: TestApp;
let port: number;
beforeAll(async () => {
  app = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", BODY_MAX_BYTES: "1024" }, { routes });
  port = Number(new URL(app.url).port);
});
afterAll(() => app.close());

const item = (method: string, body?: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}/diagnostics/api/items/7`, { method, headers: body === undefined ? headers : { "Content-Type": "application/json", ...headers }, body });

describe("a resource route with a handler per method", () => {
  it("answers GET with its handler's JSON, and HEAD with GET's headers and no body", async () => {
    const got = await item("GET");
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await got.json()).toEqual({ id: "7" });
    const head = await send(port, "/diagnostics/api/items/7", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(head.headers["content-length"]).toBe(got.headers.get("content-length"));
    expect(head.body.length).toBe(0);
  });

  it("answers PUT and PATCH with their handlers, a JSON or form body parsed as for an action", async () => {
    const put = await item("PUT", '{"name":"lamp","n":2}');
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ name: "lamp", n: 2, id: "7" });
    const patch = await fetch(`${app.url}/diagnostics/api/items/8`, {
      method: "PATCH",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "name=desk&tag=a&tag=b",
    });
    expect(await patch.json()).toEqual({ name: "desk", tag: ["a", "b"], id: "8" });
  });

  it("answers DELETE with the Response its handler returns: 204, no body", async () => {
    const deleted = await send(port, "/diagnostics/api/items/7", { method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect(deleted.body.length).toBe(0);
  });

  it("answers every other method 405, Allow listing exactly what the module exports (and HEAD)", async () => {
    for (const method of ["POST", "OPTIONS", "PROPFIND"]) {
      const refused = await send(port, "/diagnostics/api/items/7", { method, headers: { "Content-Type": "application/json" }, body: Buffer.from("{}") });
      expect(refused.status, method).toBe(405);
      expect(refused.headers.allow, method).toBe("GET, HEAD, PUT, PATCH, DELETE");
    }
    const get = await fetch(`${app.url}/m/post-only`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const posted = await fetch(`${app.url}/m/post-only`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"a":1}' });
    expect(await posted.json()).toEqual({ created: { a: 1 } });
  });

  it("refuses cross-site browser writes and accepts JSON from its own origin", async () => {
    const form = { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };
    for (const method of ["PUT", "PATCH", "DELETE", "POST"]) {
      const refused = await fetch(`${app.url}/diagnostics/api/items/7`, { method, headers: form, body: "name=x" });
      expect(refused.status, method).toBe(403);
      expect(await refused.text()).toMatch(/cross-site/);
    }
    const crossOrigin = await item("PUT", "{}", { Origin: "https://evil.example" });
    expect(crossOrigin.status).toBe(403);
    const sameOrigin = await item("PUT", '{"ok":true}', { Origin: app.url, "Sec-Fetch-Site": "same-origin" });
    expect(sameOrigin.status).toBe(200);
    expect(await sameOrigin.json()).toEqual({ ok: true, id: "7" });
  });

  it("limits bodies as for pages: 413 over BODY_MAX_BYTES, 415 for a type the parser does not read", async () => {
    const tooLarge = await item("PATCH", JSON.stringify({ text: "x".repeat(2000) }));
    expect(tooLarge.status).toBe(413);
    const text = await fetch(`${app.url}/diagnostics/api/items/7`, { method: "PUT", headers: { "Content-Type": "text/plain" }, body: "hello" });
    expect(text.status).toBe(415);
    expect(await text.text()).toMatch(/Content-Type must be/);
  });

  it("answers a handler's httpError as its status and JSON, and redirect() with the status it names", async () => {
    const conflict = await fetch(`${app.url}/m/signals`, { method: "PUT" });
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({ conflict: true });
    const moved = await fetch(`${app.url}/m/signals`, { method: "DELETE", redirect: "manual" });
    expect(moved.status).toBe(303);
    expect(moved.headers.get("location")).toBe("/m/post-only");
    expect(await (await fetch(`${app.url}/m/signals?q=lamp`)).json()).toEqual({ search: null, q: "lamp" });
  });
});

describe("a resource route's two forms", () => {
  const config = (file: string) => ({ root: "Root.tsx", notFound: "NotFound.tsx", routes: [route("api", file)] });
  const page = { module: { default: () => null } };
  const shell = { "Root.tsx": page, "NotFound.tsx": page };

  it("refuses, at start-up and naming the file, a module exporting handlers and load or action", () => {
    const both = { "api.server.ts": { server: { GET: () => ({}), load: () => ({}), action: () => ({}) } } };
    expect(() => createAppRoutes(config("api.server.ts"), { ...shell, ...both })).toThrow(
      "resource route api.server.ts exports both per-method handlers (GET) and load, action: export one form, the handlers or load/action",
    );
  });

  it("refuses handlers on a page's server half, and a handler that is not a function", () => {
    const pageWithPut = { "Api.tsx": { ...page, server: { PUT: () => ({}) } } };
    expect(() => createAppRoutes(config("Api.tsx"), { ...shell, ...pageWithPut })).toThrow(/route module Api\.tsx: its server half exports PUT, handlers for resource routes only/);
    const notAFunction = { "api.server.ts": { server: { DELETE: "yes" } } } as unknown as Record<string, LoadedRouteFile>;
    expect(() => createAppRoutes(config("api.server.ts"), { ...shell, ...notAFunction })).toThrow("resource route api.server.ts: its DELETE export is not a function");
  });
});
