import { Session } from "node:inspector/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTunnel, type Tunnel } from "#src/server/tunnel/index";
import { BUILD_HEADER } from "#src/shared/routing/data-request";
import { type FakeIngest, startFakeIngest } from "../../support/fake-ingest";
import { type ClientResponse, send } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";
import { envelope } from "../tunnel/harness";

/**
 * Which files of src/server/ each walk runs a function of, from app.ts's first middleware to the
 * written answer (V8's precise coverage, reset just before the request, read once its response
 * has closed): the files a walk crosses, and proof that the switch sent it to one writer only.
 */
const SERVER = "/src/server/";
const CHROME_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

let app: TestApp;
let ingest: FakeIngest;
let tunnel: Tunnel;
const session = new Session();
const crossed = new Map<string, string[]>();

async function filesCrossed(request: () => Promise<ClientResponse>): Promise<{ files: string[]; status: number }> {
  // Once unmeasured, so that lazily loaded modules (the body parsers) are not counted as the walk's.
  await request();
  await session.post("Profiler.takePreciseCoverage");
  const { status } = await request();
  // The request log and the render's close handlers run on the response's "close".
  await new Promise((resolve) => setTimeout(resolve, 50));
  const { result } = await session.post("Profiler.takePreciseCoverage");
  const files = result
    .filter(({ url, functions }) => url.includes(SERVER) && functions.some((fn) => (fn.ranges[0]?.count ?? 0) > 0))
    .map(({ url }) => url.slice(url.indexOf(SERVER) + SERVER.length).replace(/\?.*$/, ""))
    .sort();
  return { files, status };
}

beforeAll(async () => {
  ingest = await startFakeIngest();
  const dsn = `http://abc123@127.0.0.1:${ingest.port}/42`;
  tunnel = createTunnel({ path: "/monitoring", allowedDsns: [dsn], maxBytes: 1024 * 1024, rateLimitPerMinute: 0, connectTimeoutMs: 1_000, headersTimeoutMs: 2_000 });
  app = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", SENTRY_TUNNEL_PATH: "/monitoring" }, { tunnel });
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
});

afterAll(async () => {
  await session.post("Profiler.stopPreciseCoverage");
  session.disconnect();
  await app?.close();
  await tunnel?.close();
  await ingest?.close();
  const lines = [...crossed].map(([walk, files]) => `${walk}: ${files.length} files\n  ${files.join("\n  ")}`);
  console.log(`files each walk crosses under src/server/:\n${lines.join("\n")}`);
});

const port = () => Number(new URL(app.url).port);
const build = () => app.deps.assets.manifest.buildId;
const form = Buffer.from("note=hi&intent=redirect");

describe("the page pipeline's walks", () => {
  it("a document GET runs the document writer and no guard", async () => {
    const { files, status } = await filesCrossed(() => send(port(), "/", { method: "GET", headers: { "user-agent": CHROME_UA } }));
    crossed.set("document GET /", files);
    expect(status).toBe(200);
    expect(files).toEqual(expect.arrayContaining(["request/core/classify.ts", "request/pipeline-switch.ts", "request/page-handler.ts", "render/document-writer.ts"]));
    expect(files).not.toEqual(expect.arrayContaining(["http/csrf.ts"]));
    expect(files).not.toContain("forms/body-parser.ts");
    expect(files).not.toContain("render/data-answer.ts");
  });

  it("a data GET runs the data writer", async () => {
    const { files, status } = await filesCrossed(() => send(port(), "/__data/", { method: "GET", headers: { [BUILD_HEADER]: build() } }));
    crossed.set("data GET /__data/", files);
    expect(status).toBe(200);
    expect(files).toContain("render/data-answer.ts");
    expect(files).not.toContain("render/document-writer.ts");
    expect(files).not.toContain("http/csrf.ts");
  });

  it("an action POST passes CSRF and the body parser, runs the action and redirects as a document URL does", async () => {
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    const { files, status } = await filesCrossed(() => send(port(), "/diagnostics/form", { method: "POST", headers, body: form }));
    crossed.set("action POST /diagnostics/form", files);
    expect(status).toBe(303);
    expect(files).toEqual(expect.arrayContaining(["http/csrf.ts", "forms/body-parser.ts", "request/guards.ts", "request/core/route-handlers.ts", "render/document-writer.ts", "render/resource-answer.ts"]));
    expect(files).not.toContain("render/data-answer.ts");
  });

  it("a resource GET runs the resource writer", async () => {
    const { files, status } = await filesCrossed(() => send(port(), "/diagnostics/api/echo?a=1", { method: "GET" }));
    crossed.set("resource GET /diagnostics/api/echo", files);
    expect(status).toBe(200);
    expect(files).toContain("render/resource-answer.ts");
    expect(files).not.toContain("render/document-writer.ts");
    expect(files).not.toContain("request/guards.ts");
  });

  it("a tunnel POST never reaches the page pipeline", async () => {
    const { files, status } = await filesCrossed(() => send(port(), "/monitoring?p=42", { method: "POST", body: envelope(`http://abc123@127.0.0.1:${ingest.port}/42`) }));
    crossed.set("tunnel POST /monitoring", files);
    expect(status).toBe(200);
    expect(files.filter((file) => file.startsWith("request/") || file.startsWith("render/"))).toEqual([]);
  });
});
