import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoadedRouteFile } from "#src/server/routing/app-routes";
import { route } from "#src/shared/routing/config";
import { httpError, redirect } from "#src/shared/routing/signals";
import { loadAppRoutes } from "../../support/app-routes";
import { productBuild } from "../../support/builds";
import { send } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";

const files: Record<string, LoadedRouteFile> = {
  "r/file.server.ts": {
    server: {
      load: ({ cookies }) => {
        cookies.set("seen", "1");
        return new Response("User-agent: *\n", { headers: { "Content-Type": "text/plain; charset=utf-8", "X-From": "resource" } });
      },
    },
  },
  "r/read-only.server.ts": { server: { load: () => ({ ok: true }) } },
  "r/write.server.ts": {
    server: {
      action: ({ method, body }) => {
        if ((body as { deny?: string }).deny) httpError(409, { conflict: true });
        return { method, body };
      },
    },
  },
  "r/moved.server.ts": {
    server: {
      load: () => redirect("/r/read-only"),
      action: ({ cookies }) => {
        cookies.set("moved", "1");
        redirect("/r/read-only", 303);
      },
    },
  },
  "r/broken.server.ts": {
    server: {
      load: () => {
        throw new Error("resource failure");
      },
    },
  },
};

const routes = await loadAppRoutes({
  routes: [route("r/file.txt", "r/file.server.ts"), route("r/read-only", "r/read-only.server.ts"), route("r/write", "r/write.server.ts"), route("r/moved", "r/moved.server.ts"), route("r/broken", "r/broken.server.ts")],
  files,
});

let app: TestApp;
let port: number;
beforeAll(async () => {
  app = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", BODY_MAX_BYTES: "1024" }, { routes });
  port = Number(new URL(app.url).port);
});
afterAll(() => app.close());

const json = (method: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${app.url}/diagnostics/api/echo`, { method, headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });

describe("the echo resource route", () => {
  it("answers GET with the query as JSON, and HEAD with the same headers and no body", async () => {
    const response = await fetch(`${app.url}/diagnostics/api/echo?a=1&b=two`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.json()).toEqual({ method: "GET", query: { a: "1", b: "two" } });
    const head = await send(port, "/diagnostics/api/echo?a=1", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(head.body.length).toBe(0);
  });

  it("answers POST with the JSON or form body it was sent", async () => {
    const fromJson = await json("POST", { note: "hi", n: 2 });
    expect(await fromJson.json()).toEqual({ method: "POST", body: { note: "hi", n: 2 } });
    const fromForm = await fetch(`${app.url}/diagnostics/api/echo`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "note=hi&tag=a&tag=b",
    });
    expect(await fromForm.json()).toEqual({ method: "POST", body: { note: "hi", tag: ["a", "b"] } });
  });

  it("answers PUT with 405 and Allow", async () => {
    const response = await json("PUT", {});
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, POST");
  });

  it("refuses a cross-site browser POST, lets a server-to-server one through, and limits bodies as pages do", async () => {
    const crossSite = await json("POST", { a: 1 }, { Origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    // fetch always sends no Origin for a non-browser caller here: a plain server-to-server call.
    expect((await json("POST", { a: 1 })).status).toBe(200);
    const tooLarge = await json("POST", { text: "x".repeat(2000) });
    expect(tooLarge.status).toBe(413);
  });

  it("is no page for a navigation's data request: the browser loads it as a document", async () => {
    const response = await fetch(`${app.url}/__data/diagnostics/api/echo`, { headers: { "X-Outpost-Build": app.deps.assets.manifest.buildId } });
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.kind).toBeUndefined();
    expect(body.error).toMatch(/resource route/);
  });
});

describe("resource routes", () => {
  it("answer with a web Response as it is: status, headers, cookies and body", async () => {
    const response = await fetch(`${app.url}/r/file.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("x-from")).toBe("resource");
    expect(response.headers.getSetCookie()).toEqual(["seen=1; path=/; samesite=lax; httponly"]);
    expect(await response.text()).toBe("User-agent: *\n");
  });

  it("answer methods they have no handler for with 405 and the methods they take", async () => {
    const post = await fetch(`${app.url}/r/read-only`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    const get = await fetch(`${app.url}/r/write`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST, PUT, PATCH, DELETE");
  });

  it("send PUT, PATCH and DELETE to the action by default, and an httpError as its status and JSON", async () => {
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const response = await fetch(`${app.url}/r/write`, { method, headers: { "Content-Type": "application/json" }, body: '{"x":1}' });
      expect(await response.json()).toEqual({ method, body: { x: 1 } });
    }
    const denied = await fetch(`${app.url}/r/write`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"deny":"yes"}' });
    expect(denied.status).toBe(409);
    expect(await denied.json()).toEqual({ conflict: true });
  });

  it("answer redirect() with the status it names (307 by default, not made 303 as a page action's is), Location, cookies and no body", async () => {
    const posted = await fetch(`${app.url}/r/moved`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}", redirect: "manual" });
    expect(posted.status).toBe(303);
    expect(posted.headers.get("location")).toBe("/r/read-only");
    expect(posted.headers.getSetCookie()).toEqual(["moved=1; path=/; samesite=lax; httponly"]);
    expect(await posted.text()).toBe("");
    const got = await fetch(`${app.url}/r/moved`, { redirect: "manual" });
    expect(got.status).toBe(307);
    expect(got.headers.get("location")).toBe("/r/read-only");
  });

  it("answer a thrown error with 500 JSON, reported once", async () => {
    const before = app.logs.filter((line) => line.level >= 50).length;
    const response = await fetch(`${app.url}/r/broken`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: "Internal Server Error" });
    expect(app.logs.filter((line) => line.level >= 50).length - before).toBe(1);
  });

  it("are in no browser bundle", () => {
    const client = path.join(productBuild(), "client");
    const code = readdirSync(client, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".js"))
      .map((file) => readFileSync(path.join(client, file), "utf8"))
      .join("\n");
    // The route table names it (a link to it loads the document); its code is nowhere.
    expect(code).toContain("diagnostics/api/echo.server.ts");
    expect(code).not.toContain("actionMethods");
    expect(code).not.toMatch(/query:\s*Object\.fromEntries/);
  });
});
