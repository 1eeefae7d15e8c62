import { Session } from "node:inspector/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPrerendered } from "#src/server/prerender/prerendered-pages";
import { revalidateTag } from "#src/server/routing/revalidation";
import { createTunnel, type Tunnel } from "#src/server/tunnel/index";
import { BUILD_HEADER } from "#src/shared/routing/data-request";
import { fixtureBuild } from "../../support/builds";
import { type FakeIngest, startFakeIngest } from "../../support/fake-ingest";
import { type ClientResponse, send } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";
import { envelope } from "../tunnel/harness";
import { WalkTracer, type WalkMeasure } from "./support/walk-trace";

/**
 * Which files of src/server/ each walk runs a function of, from app.ts's first middleware to the
 * written answer (V8's precise coverage, reset just before the request, read once its response
 * has closed), and where it goes back into a file (support/walk-trace.ts): the counts the
 * architecture guide states, and proof that the switch sent each walk to one writer only.
 */
const CHROME_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

let app: TestApp;
let ingest: FakeIngest;
let tunnel: Tunnel;
const tracer = new WalkTracer(new Session());
const crossed = new Map<string, WalkMeasure>();

/**
 * The counts docs/guides/architecture.md states, per walk: files run; re-entries by 0050's rule,
 * all of them and those into the page path's own files; calls back into a file the walk is still
 * inside. A change that moves them updates the guide.
 */
const STATED: Record<string, { files: number; reentries: number; intoPagePath: number; callbacks: number }> = {
  "document GET /": { files: 37, reentries: 4, intoPagePath: 1, callbacks: 0 },
  "data GET /__data/": { files: 30, reentries: 3, intoPagePath: 0, callbacks: 0 },
  "action POST /diagnostics/form": { files: 36, reentries: 3, intoPagePath: 0, callbacks: 0 },
  "resource GET /diagnostics/api/echo": { files: 26, reentries: 3, intoPagePath: 0, callbacks: 1 },
  "cached page GET, a miss": { files: 39, reentries: 11, intoPagePath: 5, callbacks: 1 },
  "cached page GET, a hit": { files: 23, reentries: 3, intoPagePath: 0, callbacks: 1 },
  "prerendered GET /diagnostics/prerendered": { files: 9, reentries: 0, intoPagePath: 0, callbacks: 0 },
  "tunnel POST /monitoring": { files: 20, reentries: 1, intoPagePath: 0, callbacks: 0 },
};
/** The page path's own folders; the rest (http/, routing/, …) are helpers several stages share. */
const PAGE_PATH = /-> (request|render|page-cache|prerender)\//;

async function walk(name: string, request: () => Promise<ClientResponse>, before?: () => unknown): Promise<WalkMeasure> {
  const measure = await tracer.measure(request, before);
  crossed.set(name, measure);
  const { files, reentries, callbacks } = measure;
  const counts = { files: files.length, reentries: reentries.length, intoPagePath: reentries.filter((call) => PAGE_PATH.test(call)).length, callbacks: callbacks.length };
  expect(counts, `${name}: the counts the architecture guide states`).toEqual(STATED[name]);
  return measure;
}

beforeAll(async () => {
  ingest = await startFakeIngest();
  const dsn = `http://abc123@127.0.0.1:${ingest.port}/42`;
  tunnel = createTunnel({ path: "/monitoring", allowedDsns: [dsn], maxBytes: 1024 * 1024, rateLimitPerMinute: 0, connectTimeoutMs: 1_000, headersTimeoutMs: 2_000 });
  app = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", SENTRY_TUNNEL_PATH: "/monitoring" }, { tunnel, prerendered: loadPrerendered(fixtureBuild()) });
  await tracer.start();
});

afterAll(async () => {
  await tracer.stop();
  await app?.close();
  await tunnel?.close();
  await ingest?.close();
  const lines = [...crossed].map(
    ([walk, { files, reentries, callbacks }]) =>
      `${walk}: ${files.length} files, ${reentries.length} re-entries ${JSON.stringify(reentries)}, ${callbacks.length} calls back ${JSON.stringify(callbacks)}\n  ${files.join("\n  ")}`,
  );
  console.log(`files each walk crosses under src/server/:\n${lines.join("\n")}`);
});

const port = () => Number(new URL(app.url).port);
const build = () => app.deps.assets.manifest.buildId;
const form = Buffer.from("note=hi&intent=redirect");
/** Calls from the page cache into the request path's files (its handler's closures included). */
const intoRequest = (crossings: string[]) => crossings.filter((call) => /^page-cache\/\S+ -> request\//.test(call));
/** A page with a `cache` export (kept a minute, tag "diagnostics"). */
const CACHED = "/diagnostics/page-cache";

describe("the page pipeline's walks", () => {
  it("a document GET runs the document writer and no guard", async () => {
    const { files, status } = await walk("document GET /", () => send(port(), "/", { method: "GET", headers: { "user-agent": CHROME_UA } }));
    expect(status).toBe(200);
    expect(files).toEqual(expect.arrayContaining(["request/core/classify.ts", "request/pipeline-switch.ts", "request/page-handler.ts", "render/document-writer.ts"]));
    expect(files).not.toEqual(expect.arrayContaining(["http/csrf.ts"]));
    expect(files).not.toContain("forms/body-parser.ts");
    expect(files).not.toContain("render/data-answer.ts");
  });

  it("a data GET runs the data writer", async () => {
    const { files, status } = await walk("data GET /__data/", () => send(port(), "/__data/", { method: "GET", headers: { [BUILD_HEADER]: build() } }));
    expect(status).toBe(200);
    expect(files).toContain("render/data-answer.ts");
    expect(files).not.toContain("render/document-writer.ts");
    expect(files).not.toContain("http/csrf.ts");
  });

  it("an action POST passes CSRF and the body parser, runs the action and redirects as a document URL does", async () => {
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    const { files, status } = await walk("action POST /diagnostics/form", () => send(port(), "/diagnostics/form", { method: "POST", headers, body: form }));
    expect(status).toBe(303);
    expect(files).toEqual(expect.arrayContaining(["http/csrf.ts", "forms/body-parser.ts", "request/guards.ts", "request/core/route-handlers.ts", "render/document-writer.ts", "render/resource-answer.ts"]));
    expect(files).not.toContain("render/data-answer.ts");
  });

  it("a resource GET runs the resource writer", async () => {
    const { files, status } = await walk("resource GET /diagnostics/api/echo", () => send(port(), "/diagnostics/api/echo?a=1", { method: "GET" }));
    expect(status).toBe(200);
    expect(files).toContain("render/resource-answer.ts");
    expect(files).not.toContain("render/document-writer.ts");
    expect(files).not.toContain("request/guards.ts");
  });

  it("a cached page's miss renders it and keeps it", async () => {
    const { files, status, crossings } = await walk("cached page GET, a miss", () => send(port(), CACHED, { method: "GET" }), () => revalidateTag("diagnostics"));
    expect(status).toBe(200);
    expect(files).toEqual(expect.arrayContaining(["page-cache/cache-plan.ts", "page-cache/page-cache.ts", "render/document-writer.ts"]));
    expect(intoRequest(crossings), "the page handler renders and hands the cache its outcome; the cache never calls back into the handler").toEqual([]);
  });

  it("a cached page's hit answers from the cache without resolving or rendering", async () => {
    const { files, status, crossings } = await walk("cached page GET, a hit", () => send(port(), CACHED, { method: "GET" }));
    expect(status).toBe(200);
    expect(files).toEqual(expect.arrayContaining(["page-cache/cache-plan.ts", "page-cache/page-cache.ts", "page-cache/stored-page.ts"]));
    expect(files).not.toContain("request/core/resolve.ts");
    expect(files).not.toContain("render/document-writer.ts");
    expect(intoRequest(crossings)).toEqual([]);
  });

  it("a prerendered page is answered from the build before Koa, without the page path", async () => {
    const { files, status } = await walk("prerendered GET /diagnostics/prerendered", () => send(port(), "/diagnostics/prerendered", { method: "GET" }));
    expect(status).toBe(200);
    expect(files).toEqual(expect.arrayContaining(["http/fixed-answers.ts", "prerender/prerendered-pages.ts"]));
    expect(files.filter((file) => file.startsWith("request/") || file.startsWith("render/"))).toEqual([]);
  });

  it("a tunnel POST never reaches the page pipeline", async () => {
    const { files, status } = await walk("tunnel POST /monitoring", () => send(port(), "/monitoring?p=42", { method: "POST", body: envelope(`http://abc123@127.0.0.1:${ingest.port}/42`) }));
    expect(status).toBe(200);
    expect(files.filter((file) => file.startsWith("request/") || file.startsWith("render/"))).toEqual([]);
  });
});
