import { Suspense } from "react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Await } from "#src/shared/outpost";
import type { RequestRecord } from "#src/server/http/request-log";
import type { PageCacheResult } from "#src/server/page-cache/page-cache";
import { BUILD_HEADER } from "#src/shared/routing/data-request";
import { route } from "#src/shared/routing/config";
import { send } from "../../support/raw-http";
import { loadAppRoutes } from "../../support/app-routes";
import { startTestApp, type TestApp } from "../../support/test-app";

const PAGE = "/diagnostics/page-cache";
let app: TestApp;
const results: PageCacheResult[] = [];
const records: RequestRecord[] = [];

/** A cached page whose deferred value fails: it shows an error element for it, so it must never be kept. */
const CachedFailingPage = ({ data }: { data: { id: string; later: Promise<string> } }) => (
  <>
    <p id="render-id">{data.id}</p>
    <Suspense fallback={<p id="later-fallback">loading</p>}>
      <Await resolve={data.later} errorElement={<p id="later-error">failed</p>}>
        {(later) => <p id="later">{later}</p>}
      </Await>
    </Suspense>
  </>
);

/** Cached pages that must never be kept: one reads the session, one defers a value that fails. */
const routes = await loadAppRoutes({
  routes: [route("test/cached-session", "test/cached-session.tsx"), route("test/cached-failing", "test/cached-failing.tsx")],
  files: {
    "test/cached-failing.tsx": {
      module: { default: CachedFailingPage },
      server: {
        cache: { maxAge: 60 },
        load: () => ({ id: `${Math.random()}`, later: new Promise((_resolve, reject) => setTimeout(reject, 20, new Error("deferred failure"))) }),
      },
    },
    "test/cached-session.tsx": {
      module: { default: ({ data }: { data: { id: string } }) => <p id="render-id">{data.id}</p> },
      server: { cache: { maxAge: 60 }, load: ({ session }) => ({ id: `${session.get("user") ?? ""}${Math.random()}` }) },
    },
  },
});

beforeAll(async () => {
  app = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true" }, { routes, observePageCache: (result) => results.push(result), observeRequest: (record) => records.push(record) });
});
afterAll(() => app.close());

const renderId = (html: string) => /<p id="render-id">([^<]+)<\/p>/.exec(html)?.[1];
const get = async (path = PAGE, init?: RequestInit) => {
  const response = await fetch(`${app.url}${path}`, init);
  return { response, html: await response.text() };
};
const revalidate = () =>
  fetch(`${app.url}${PAGE}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url },
    body: "intent=revalidate",
  });

describe("a page that declares cache", () => {
  it("is rendered once and served again, with a fresh CSP nonce and the declared Cache-Control", async () => {
    const first = await get();
    const second = await get();
    expect(first.response.status).toBe(200);
    expect(renderId(first.html)).toBeTruthy();
    expect(renderId(second.html)).toBe(renderId(first.html));
    expect(second.response.headers.get("cache-control")).toBe("public, s-maxage=60, stale-while-revalidate=0");
    const nonces = [first, second].map(({ response }) => /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1]);
    expect(nonces[0]).not.toBe(nonces[1]);
    // Every inline script carries its response's own nonce.
    expect(second.html).toContain(`nonce="${nonces[1]}"`);
    expect(second.html).not.toContain(`nonce="${nonces[0]}"`);
    expect(results).toContain("hit");
  });

  it("logs and measures a kept answer under its route pattern, as a rendered one", async () => {
    await get();
    records.length = 0;
    const hit = await get();
    expect(renderId(hit.html)).toBeTruthy();
    // The request log's record is written once the response has closed.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(records.map(({ route }) => route)).toEqual([PAGE]);
  });

  it("answers HEAD with the headers only, and 304 without a CSP to a current validator, from the kept copy", async () => {
    const got = await get();
    results.length = 0;
    const head = await fetch(`${app.url}${PAGE}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const etag = head.headers.get("etag") as string;
    expect(etag).toMatch(/^W\//);
    expect(etag).toBe(got.response.headers.get("etag"));
    expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(got.html)));
    // Raw HTTP: fetch() adds Cache-Control: no-cache to a conditional request.
    const revalidated = await send(Number(new URL(app.url).port), PAGE, { method: "GET", headers: { "If-None-Match": etag } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.text()).toBe("");
    expect(revalidated.headers["content-security-policy"]).toBeUndefined();
    expect(results).toEqual(["hit", "hit"]);
  });

  it("shows a new render after revalidateTag, and 50 concurrent requests share that one render", async () => {
    const before = renderId((await get()).html);
    const posted = await revalidate();
    expect(posted.status).toBe(303);
    expect(posted.headers.get("location")).toBe(PAGE);
    const after = await Promise.all(Array.from({ length: 50 }, () => get()));
    const ids = new Set(after.map(({ html }) => renderId(html)));
    expect(ids.size).toBe(1);
    expect(ids.has(before)).toBe(false);
  });

  it("keeps the data answer for client navigations too", async () => {
    const headers = { [BUILD_HEADER]: app.deps.assets.manifest.buildId };
    const ids = [];
    for (let i = 0; i < 2; i++) {
      const answer = (await (await fetch(`${app.url}/__data${PAGE}`, { headers })).json()) as { state: { data: Record<string, { renderId: string }> } };
      ids.push(answer.state.data["diagnostics/PageCachePage"]?.renderId);
    }
    expect(ids[0]).toBeTruthy();
    expect(ids[1]).toBe(ids[0]);
  });

  it("is never kept when it reads the session: bypass", async () => {
    results.length = 0;
    const first = await get("/test/cached-session");
    const second = await get("/test/cached-session");
    expect(renderId(second.html)).not.toBe(renderId(first.html));
    expect(results).toEqual(["bypass", "bypass"]);
    expect(second.response.headers.get("cache-control")).toBe("private, no-store");
  });

  it("is never kept when a deferred value failed: answered as usual, bypass, not public for a CDN", async () => {
    results.length = 0;
    const first = await get("/test/cached-failing");
    const second = await get("/test/cached-failing");
    expect(first.response.status).toBe(200);
    expect(first.html).toContain('id="later-error"');
    expect(renderId(first.html)).toBeTruthy();
    expect(renderId(second.html)).not.toBe(renderId(first.html));
    expect(results).toEqual(["bypass", "bypass"]);
    expect(second.response.headers.get("cache-control")).toBe("no-cache");
  });
});
