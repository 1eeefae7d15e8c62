import type { IncomingHttpHeaders } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withDiagnostics } from "#src/diagnostics/routes";
import appConfig from "../../fixtures/app/routes";
import type { LoadedRouteFile } from "#src/server/routing/app-routes";
import { route, type RouteConfig } from "#src/shared/routing/config";
import { BUILD_HEADER } from "#src/shared/routing/data-request";
import { loadAppRoutes } from "../../support/app-routes";
import { send } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";

// Resource routes answering web Responses, the kinds a route returns: JSON, text, a file-like
// stream, an empty 200, a 204, a redirect.
const responses: Record<string, () => Response> = {
  json: () => Response.json({ a: 1 }),
  text: () => new Response("User-agent: *\n", { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "max-age=60" } }),
  sized: () => new Response("12345", { headers: { "Content-Type": "text/plain", "Content-Length": "5" } }),
  empty: () => new Response(null, { status: 200, headers: { "Content-Type": "text/csv" } }),
  "no-content": () => new Response(null, { status: 204 }),
  moved: () => Response.redirect("http://127.0.0.1/elsewhere", 308),
};
const responseFiles: Record<string, LoadedRouteFile> = Object.fromEntries(
  Object.entries(responses).map(([name, make]) => [`test/response/${name}.server.ts`, { server: { load: make } }]),
);
// A resource route without a loader: GET and HEAD are both 405.
responseFiles["test/response/post-only.server.ts"] = { server: { action: () => ({ ok: true }) } };
const responseRoutes: RouteConfig[] = Object.keys(responseFiles).map((file) => route(file.replace(/\.server\.ts$/, ""), file));

/** Every page path of a route table, parameters filled in, catch-alls left out. */
function pathsOf(routes: readonly RouteConfig[], parent = ""): string[] {
  return routes.flatMap((entry) => {
    const own = entry.index ? parent : `${parent}/${entry.path ?? ""}`.replace(/\/+$/, "");
    if (entry.children?.length) return pathsOf(entry.children, own);
    if (own.includes("*")) return [];
    return [own.replace(/:[^/]+/g, "x") || "/"];
  });
}

// Differ between any two requests, whatever the method: the date, a page's nonce, the framing.
// Cache-Status too: of a GET and a HEAD sent together to a kept page, one renders and the other waits for that render.
const VOLATILE = new Set(["date", "content-security-policy", "transfer-encoding", "connection", "keep-alive", "set-cookie", "cache-status"]);

function comparable(headers: IncomingHttpHeaders): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) if (!VOLATILE.has(name)) kept[name] = value;
  // The cookies' names only: a fresh session id per request is no difference.
  kept["set-cookie names"] = (headers["set-cookie"] ?? []).map((cookie) => cookie.split("=")[0]).sort();
  return kept;
}

let app: TestApp;
let port: number;
let build: string;

beforeAll(async () => {
  const routes = await loadAppRoutes({ routes: responseRoutes, files: responseFiles });
  // Behind a trusted proxy, so each comparison is one client of its own: a rate-limited route
  // (/diagnostics/limited) counts GET and HEAD alike, and must not run out across comparisons.
  app = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", TRUST_PROXY: "true" }, { routes });
  port = Number(new URL(app.url).port);
  build = app.deps.assets.manifest.buildId;
});
afterAll(() => app.close());

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

// The live events' stream never ends for a GET: its HEAD is checked on its own below.
const EVENT_STREAM = "/diagnostics/events/stream";
const pagePaths = [...pathsOf(withDiagnostics(appConfig).routes), ...pathsOf(responseRoutes)].filter((path) => path !== EVENT_STREAM);
const targets = [
  ...pagePaths,
  ...pagePaths.map((path) => `/__data${path === "/" ? "" : path}`),
  "/diagnostics/deferred?fail=1",
  "/__data/diagnostics/deferred?fail=1",
  "/nowhere",
  "/robots.txt",
  "/healthz",
];

let clients = 0;
const nextClient = () => `198.51.${Math.floor(++clients / 250)}.${clients % 250}`;

describe("HEAD", () => {
  it("walks every route of the diagnostics app and the kinds of web Response", () => {
    expect(pagePaths).toContain("/diagnostics/deferred");
    expect(pagePaths).toContain("/diagnostics/api/echo");
    expect(pagePaths.length).toBeGreaterThan(15);
  });

  it.each([
    ...targets.map((target) => [target, CHROME]),
    // A crawler's GET renders whole; its HEAD is answered at the shell, with the same status.
    ...pagePaths.map((target) => [target, GOOGLEBOT]),
  ])("answers %s with GET's status and headers, without a body (user agent %s)", async (target, agent) => {
    const headers = { [BUILD_HEADER]: build, "user-agent": agent as string, "x-forwarded-for": nextClient() };
    const [get, head] = await Promise.all([send(port, target as string, { method: "GET", headers }), send(port, target as string, { method: "HEAD", headers })]);
    expect(head.status).toBe(get.status);
    expect(comparable(head.headers)).toEqual(comparable(get.headers));
    expect(head.body.length).toBe(0);
    // A length said is the length sent.
    if (get.headers["content-length"] !== undefined) expect(Number(get.headers["content-length"])).toBe(get.body.length);
  });

  it("answers an event stream's HEAD with its headers at once, and no body", async () => {
    const head = await send(port, EVENT_STREAM, { method: "HEAD", headers: { "x-forwarded-for": nextClient() } });
    expect(head.status).toBe(200);
    expect(head.headers["content-type"]).toMatch(/^text\/event-stream/);
    expect(head.body.length).toBe(0);
  });
});
