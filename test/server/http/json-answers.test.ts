import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoadedRouteFile } from "#src/server/routing/app-routes";
import { createTunnel } from "#src/server/tunnel";
import { route } from "#src/shared/routing/config";
import { httpError, notFound } from "#src/shared/routing/signals";
import { loadAppRoutes } from "../../support/app-routes";
import { type ClientResponse, send } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";

// Every JSON answer of the platform, whoever writes it: one Content-Type, and a length rather than chunks.
const files: Record<string, LoadedRouteFile> = {
  "j/denied.server.ts": { server: { load: () => httpError(422, { field: "name" }, { headers: { "X-Reason": "validation" } }) } },
  "j/missing.server.ts": { server: { load: () => notFound() } },
  "j/problem.server.ts": {
    server: { load: () => httpError(409, { title: "Conflict" }, { headers: { "Content-Type": "application/problem+json", "Set-Cookie": "a=1" } }) },
  },
  "j/broken.server.ts": {
    server: {
      load: () => {
        throw new Error("resource failure");
      },
    },
  },
};
const routes = await loadAppRoutes({
  routes: [route("j/denied", "j/denied.server.ts"), route("j/missing", "j/missing.server.ts"), route("j/problem", "j/problem.server.ts"), route("j/broken", "j/broken.server.ts")],
  files,
});

const DSN = "https://public@o1.ingest.sentry.io/1";
const tunnel = createTunnel({ path: "/monitoring", allowedDsns: [DSN], maxBytes: 1024, rateLimitPerMinute: 0, connectTimeoutMs: 1000, headersTimeoutMs: 1000 });
let app: TestApp;
let port: number;
let build: string;
beforeAll(async () => {
  app = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true" }, { routes, tunnel });
  port = Number(new URL(app.url).port);
  build = app.deps.assets.manifest.buildId;
});
afterAll(async () => {
  await app.close();
  await tunnel.close();
});

function expectJsonAnswer(response: ClientResponse, status: number): void {
  expect(response.status).toBe(status);
  expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
  expect(response.headers["transfer-encoding"]).toBeUndefined();
  expect(response.headers["content-length"]).toBe(String(response.body.length));
  expect(() => JSON.parse(response.text())).not.toThrow();
}

describe("JSON answers", () => {
  it("a resource route's data, httpError, notFound and failure", async () => {
    expectJsonAnswer(await send(port, "/diagnostics/api/echo?a=1", { method: "GET" }), 200);
    const denied = await send(port, "/j/denied", { method: "GET" });
    expectJsonAnswer(denied, 422);
    expect(denied.json()).toEqual({ field: "name" });
    expect(denied.headers["x-reason"]).toBe("validation");
    expectJsonAnswer(await send(port, "/j/missing", { method: "GET" }), 404);
    // An httpError naming its own Content-Type keeps it.
    const problem = await send(port, "/j/problem", { method: "GET" });
    expect(problem.status).toBe(409);
    expect(problem.headers["content-type"]).toBe("application/problem+json");
    expect(problem.headers["set-cookie"]).toEqual(["a=1"]);
    expect(problem.json()).toEqual({ title: "Conflict" });
    expectJsonAnswer(await send(port, "/j/broken", { method: "GET" }), 500);
  });

  it("a data request's answer and its refusals", async () => {
    const data = (path: string, headers: Record<string, string> = { "X-Outpost-Build": build }, method = "GET") =>
      send(port, `/__data${path}`, { method, headers });
    expectJsonAnswer(await data("/"), 200);
    expectJsonAnswer(await data("/", {}), 400);
    expectJsonAnswer(await data("/", { "X-Outpost-Build": "another" }), 409);
    expectJsonAnswer(await data("/", { "X-Outpost-Build": build }, "PUT"), 405);
  });

  it("the tunnel's refusals and the health probes", async () => {
    expectJsonAnswer(await send(port, "/monitoring", { headers: { "content-type": "text/plain" }, body: Buffer.from("not an envelope") }), 400);
    expectJsonAnswer(await send(port, "/monitoring", { method: "GET" }), 405);
    expectJsonAnswer(await send(port, "/readyz", { method: "GET" }), 200);
  });

  it("the body parser's and the CSRF defence's refusals are plain text, typed and measured the same way", async () => {
    const post = (headers: Record<string, string>, body: string) => send(port, "/diagnostics/api/echo", { headers, body: Buffer.from(body) });
    const refusals = [
      await post({ "content-type": "application/json" }, "{"),
      await post({ "content-type": "application/json" }, "[".repeat(100) + "]".repeat(100)),
      await post({ "content-type": "application/vnd.api+json" }, "{}"),
      await post({ "content-type": "application/json", origin: "https://evil.example" }, "{}"),
    ];
    expect(refusals.map((response) => response.status)).toEqual([400, 400, 415, 403]);
    for (const response of refusals) {
      expect(response.headers["content-type"]).toBe("text/plain; charset=utf-8");
      expect(response.headers["content-length"]).toBe(String(response.body.length));
    }
  });
});
