import { request } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RequestMonitoring } from "#src/server/monitoring/request-monitoring";
import { until } from "../../support/raw-http";
import { type LogLine, startTestApp, type TestApp } from "../../support/test-app";
import { testRoutes } from "../../support/test-routes";

const BROWSER_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36";
const captured: unknown[] = [];
const named: string[] = [];
const monitoring: RequestMonitoring = {
  forRequest: () => ({
    nameRoute: (method, route) => named.push(`${method} ${route}`),
    captureError: (error) => {
      captured.push(error);
      return undefined;
    },
    traceMeta: () => ({ "sentry-trace": "0123456789abcdef0123456789abcdef-0123456789abcdef" }),
  }),
  captureFeedback: () => "0".repeat(32),
};

let app: TestApp;
let uploadStarted: () => void = () => {};

const requestLines = (method: string, route: string): LogLine[] =>
  app.logs.filter((line) => line.msg === "request" && line.method === method && line.route === route);

/**
 * A complete render of /test/late: its deferred value settles on the same delay as those of the
 * requests before it, so once it has ended, any earlier render's moment to write has passed too.
 */
async function renderLateToTheEnd(): Promise<void> {
  const before = requestLines("GET", "/test/late").length;
  const html = await (await fetch(`${app.url}/test/late`, { headers: { "user-agent": BROWSER_UA } })).text();
  expect(html).toContain("late content");
  await until(() => requestLines("GET", "/test/late").length > before);
}

beforeAll(async () => {
  app = await startTestApp(
    {},
    {
      routes: testRoutes,
      monitoring,
      // An error outside the renderer: Koa answers 500 and emits it on the app.
      extraMiddleware: [
        async (ctx, next) => {
          if (ctx.path === "/test/upload") {
            // Reads the whole body, as a form's body parser or the tunnel would.
            for await (const _chunk of ctx.req) {
              uploadStarted();
            }
            ctx.body = "ok";
            return;
          }
          if (ctx.path === "/test/bad-request") ctx.throw(400, "bad request");
          if (ctx.path !== "/test/broken-middleware") return next();
          ctx.state.routeLabel = "/test/broken-middleware";
          throw new Error("middleware failure");
        },
      ],
    },
  );
});
afterAll(() => app.close());

it("treats a visitor leaving mid-stream as no error: nothing reported, nothing logged as one", async () => {
  const controller = new AbortController();
  const response = await fetch(`${app.url}/test/late`, {
    headers: { "user-agent": BROWSER_UA },
    signal: controller.signal,
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  expect(first).toContain('id="fallback"');
  controller.abort();
  await until(() => requestLines("GET", "/test/late").some((line) => line.aborted === true));
  await renderLateToTheEnd();
  expect(captured).toEqual([]);
  expect(app.logs.filter((line) => line.level >= 50)).toEqual([]);
});

it("treats a visitor leaving mid-upload as no error: nothing reported, nothing logged as one", async () => {
  captured.length = 0;
  const { port } = new URL(app.url);
  const req = request({ host: "127.0.0.1", port, path: "/test/upload", method: "POST", headers: { "content-length": "100000" } });
  req.on("error", () => {});
  const reading = new Promise<void>((resolve) => {
    uploadStarted = resolve;
  });
  req.write(Buffer.alloc(10_000, 0x61));
  await reading;
  req.destroy();
  // The cut body reaches Koa's error handler: it says "client left", or reports and logs an error.
  const handled = () => app.logs.some((line) => line.msg === "client left mid-request" || line.level >= 50) || captured.length > 0;
  const logged = () => app.logs.some((line) => line.msg === "request" && line.method === "POST" && line.aborted === true);
  await until(() => handled() && logged());
  expect(captured).toEqual([]);
  expect(app.logs.filter((line) => line.level >= 50)).toEqual([]);
  expect(app.logs.filter((line) => line.msg === "client left mid-request").length).toBeGreaterThan(0);
});

it("names the request by route pattern and reports a real error once", async () => {
  named.length = 0;
  const response = await fetch(`${app.url}/test/late-error`);
  await response.text();
  expect(named).toEqual(["GET /test/late-error"]);
  expect(captured.map((error) => (error as Error).message)).toEqual(["late failure"]);
});

it("renames a loader's notFound() to the not-found route and puts the trace in the head", async () => {
  named.length = 0;
  await (await fetch(`${app.url}/test/missing-item`)).text();
  expect(named).toEqual(["GET /test/missing-item", "GET not_found"]);
  const html = await (await fetch(`${app.url}/`)).text();
  expect(html).toContain('<meta name="sentry-trace" content="0123456789abcdef0123456789abcdef-0123456789abcdef"/>');
});

it("reports nothing for HEAD, whose render is cut short on purpose", async () => {
  captured.length = 0;
  const response = await fetch(`${app.url}/test/late`, { method: "HEAD", headers: { "user-agent": BROWSER_UA } });
  expect(response.status).toBe(200);
  await until(() => requestLines("HEAD", "/test/late").length > 0);
  await renderLateToTheEnd();
  expect(captured).toEqual([]);
});

it("reports an error thrown outside the renderer once, named by route, and not a client error", async () => {
  captured.length = 0;
  named.length = 0;
  const response = await fetch(`${app.url}/test/broken-middleware`);
  expect(response.status).toBe(500);
  await response.text();
  expect(captured.map((error) => (error as Error).message)).toEqual(["middleware failure"]);
  expect(named).toEqual(["GET /test/broken-middleware"]);
  // A request Koa rejects as the client's fault (expose) is no error to report.
  captured.length = 0;
  const bad = await fetch(`${app.url}/test/bad-request`);
  expect(bad.status).toBe(400);
  await bad.text();
  expect(captured).toEqual([]);
});
