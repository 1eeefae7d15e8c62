import { Suspense } from "react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PageCacheResult } from "#src/server/page-cache/page-cache";
import { route } from "#src/shared/routing/config";
import { Await } from "#src/shared/outpost";
import { loadAppRoutes } from "../../support/app-routes";
import { startTestApp, type TestApp } from "../../support/test-app";

const PAGE = "/test/cached-never";
const results: PageCacheResult[] = [];
let app: TestApp;

/** A cached page whose deferred value never comes: past the render time limit it shows its fallback. */
const routes = await loadAppRoutes({
  routes: [route("test/cached-never", "test/cached-never.tsx")],
  files: {
    "test/cached-never.tsx": {
      module: {
        default: ({ data }: { data: { id: string; never: Promise<string> } }) => (
          <>
            <p id="render-id">{data.id}</p>
            <Suspense fallback={<p id="never-fallback">loading</p>}>
              <Await resolve={data.never}>{(value) => <p id="never">{value}</p>}</Await>
            </Suspense>
          </>
        ),
      },
      server: { cache: { maxAge: 60 }, load: () => ({ id: `${Math.random()}`, never: new Promise<string>(() => {}) }) },
    },
  },
});

beforeAll(async () => {
  app = await startTestApp({ RENDER_TIMEOUT_MS: "200" }, { routes, observePageCache: (result) => results.push(result) });
});
afterAll(() => app.close());

const get = async () => {
  const response = await fetch(`${app.url}${PAGE}`);
  const html = await response.text();
  return { response, html, id: /<p id="render-id">([^<]+)<\/p>/.exec(html)?.[1] };
};

describe("a cached page whose deferred value never settles", () => {
  it("is answered at the time limit with its fallback, and never kept", async () => {
    const first = await get();
    const second = await get();
    expect(first.response.status).toBe(200);
    expect(first.html).toContain('id="never-fallback"');
    expect(first.id).toBeTruthy();
    expect(second.id).not.toBe(first.id);
    expect(results).toEqual(["bypass", "bypass"]);
    expect(second.response.headers.get("cache-control")).toBe("no-cache");
  });
});
