import { request as httpRequest } from "node:http";
import { Suspense } from "react";
import { decode } from "turbo-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Await } from "#src/shared/deferred/Await";
import { DEFERRED_DATA_TYPE, DeferredError, decodeDeferred } from "#src/shared/deferred/deferred-data";
import { route } from "#src/shared/routing/config";
import { BUILD_HEADER } from "#src/shared/routing/data-request";
import type { PageProps } from "#src/shared/routing/module";
import { loadAppRoutes } from "../../../support/app-routes";
import { recordingMonitoring } from "../../../support/fake-monitoring";
import { startTestApp, type TestApp } from "../../../support/test-app";
import { EVIL } from "../../../support/test-routes";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/** Each chunk of a response as it arrived, in order. */
function chunksOf(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; chunks: string[] }>((resolve, reject) => {
    const req = httpRequest(url, { headers: { "user-agent": CHROME, ...headers }, agent: false }, (res) => {
      const chunks: string[] = [];
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, chunks }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const indexOfChunk = (chunks: string[], text: string) => chunks.findIndex((chunk) => chunk.includes(text));

// A deferred value that never settles, and one that settles to markup-like text.
const files = {
  "test/deferred-hang.tsx": {
    module: {
      default: ({ data }: PageProps<{ never: Promise<string> }>) => (
        <Suspense fallback={<p id="never-fallback">waiting</p>}>
          <Await resolve={data.never}>{(value) => <p id="never-value">{value}</p>}</Await>
        </Suspense>
      ),
    },
    server: { load: () => ({ never: new Promise<string>(() => {}) }) },
  },
  "test/deferred-evil.tsx": {
    module: {
      default: ({ data }: PageProps<{ text: Promise<string> }>) => (
        <Suspense fallback={<p>waiting</p>}>
          <Await resolve={data.text}>{(value) => <p id="evil-value">{value}</p>}</Await>
        </Suspense>
      ),
    },
    server: { load: () => ({ text: new Promise<string>((resolve) => setTimeout(() => resolve(EVIL), 50)) }) },
  },
};

let app: TestApp;
let short: TestApp;
const reporting = recordingMonitoring();
const routes = await loadAppRoutes({
  routes: [route("test/deferred-hang", "test/deferred-hang.tsx"), route("test/deferred-evil", "test/deferred-evil.tsx")],
  files,
});

beforeAll(async () => {
  app = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true" }, { monitoring: reporting.monitoring, routes });
  short = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", RENDER_TIMEOUT_MS: "300" }, { routes });
});
afterAll(async () => {
  await app.close();
  await short.close();
});

describe("a page whose loader defers a value", () => {
  it("/diagnostics/deferred is linked from /diagnostics", async () => {
    expect(await (await fetch(`${app.url}/diagnostics`)).text()).toContain('href="/diagnostics/deferred"');
  });

  it("sends the shell with the awaited part and the fallback first, the value later in the same response", async () => {
    const { status, headers, chunks } = await chunksOf(`${app.url}/diagnostics/deferred`);
    expect(status).toBe(200);
    const first = chunks[0] as string;
    expect(first).toContain('id="fast"');
    expect(first).toContain('id="slow-fallback"');
    expect(first).not.toContain("the slow value");
    // The value comes in a later chunk, in a script carrying the page's nonce, then its markup.
    const nonce = /'nonce-([^']+)'/.exec(String(headers["content-security-policy"]))?.[1];
    const script = indexOfChunk(chunks, `<script nonce="${nonce}">(self.__OUTPOST_DEFERRED__||=[]).push(`);
    expect(script).toBeGreaterThan(0);
    expect(chunks[script]).toContain("the slow value");
    expect(indexOfChunk(chunks, 'id="slow-value"')).toBeGreaterThan(0);
  });

  it("shows a rejected value's error element, status 200, the rest intact, the error reported once and not exposed", async () => {
    const before = reporting.errors.length;
    const { status, chunks } = await chunksOf(`${app.url}/diagnostics/deferred?fail=1`);
    const html = chunks.join("");
    expect(status).toBe(200);
    expect(html).toContain('id="fast"');
    expect(html).toContain('id="slow-error"');
    expect(html).not.toContain('id="slow-value"');
    expect(html).not.toContain("diagnostic deferred error");
    const reported = reporting.errors.slice(before);
    expect(reported).toHaveLength(1);
    expect((reported[0] as Error).message).toBe("diagnostic deferred error");
  });

  it("answers HEAD with the status and headers, without waiting for the deferred value", async () => {
    const response = await fetch(`${app.url}/diagnostics/deferred`, { method: "HEAD", headers: { "user-agent": CHROME } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(await response.text()).toBe("");
  });

  it("gives crawlers the whole document at once: the value, no fallback", async () => {
    const { chunks } = await chunksOf(`${app.url}/diagnostics/deferred`, { "user-agent": GOOGLEBOT });
    const html = chunks.join("");
    expect(html).toContain('id="slow-value"');
    expect(html).not.toContain('id="slow-fallback"');
  });

  it("serialises a deferred value so it can neither close its script nor add markup", async () => {
    const html = (await chunksOf(`${app.url}/test/deferred-evil`)).chunks.join("");
    expect(html).toContain('id="evil-value"');
    expect(html).not.toContain("<script>alert(1)</script>");
  });

  it("ends the response at RENDER_TIMEOUT_MS with the fallback kept when a value never settles", async () => {
    const { status, chunks } = await chunksOf(`${short.url}/test/deferred-hang`);
    const html = chunks.join("");
    expect(status).toBe(200);
    expect(html).toContain('id="never-fallback"');
    expect(html).not.toContain('id="never-value"');
  });
});

describe("a data request for a page that defers a value", () => {
  const dataUrl = (app: TestApp, path: string) => `${app.url}/__data${path}`;
  const buildOf = (app: TestApp) => ({ [BUILD_HEADER]: app.deps.assets.manifest.buildId });

  it("streams: the awaited part in the first chunk, the value as a later line of the same body", async () => {
    const { status, headers, chunks } = await chunksOf(dataUrl(app, "/diagnostics/deferred"), buildOf(app));
    expect(status).toBe(200);
    expect(String(headers["content-type"])).toContain(DEFERRED_DATA_TYPE);
    expect(chunks[0]).toContain("the fast value");
    expect(chunks[0]).not.toContain("the slow value");
    expect(indexOfChunk(chunks, "the slow value")).toBeGreaterThan(0);
  });

  it("decodes to the page's state with the deferred value a promise; a failure is a DeferredError without the server's text", async () => {
    const before = reporting.errors.length;
    const response = await fetch(dataUrl(app, "/diagnostics/deferred?fail=1"), { headers: buildOf(app) });
    const { value } = await decode(response.body as ReadableStream<Uint8Array>, { plugins: [decodeDeferred] });
    const answer = value as { kind: string; status: number; state: { data: Record<string, { fast: string; slow: Promise<string> }> } };
    expect(answer.kind).toBe("state");
    expect(answer.status).toBe(200);
    const page = Object.values(answer.state.data).find((data) => data && "fast" in data);
    expect(page?.fast).toBe("the fast value");
    const failure = await page?.slow.then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DeferredError);
    expect((failure as DeferredError).routeError.message).toBeUndefined();
    expect((failure as DeferredError).routeError.eventId).toMatch(/^[0-9a-f]{32}$/);
    expect(reporting.errors.length - before).toBe(1);
  });

  it("ends at RENDER_TIMEOUT_MS when a value never settles", async () => {
    const { status, chunks } = await chunksOf(dataUrl(short, "/test/deferred-hang"), buildOf(short));
    expect(status).toBe(200);
    // The awaited part only: no line for the abandoned value.
    expect(chunks.join("").trimEnd().split("\n")).toHaveLength(1);
  });
});
