import { Suspense } from "react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Await } from "#src/shared/deferred/Await";
import type { LoaderContext } from "#src/shared/routing/module";
import { route } from "#src/shared/routing/config";
import { loadAppRoutes } from "../../support/app-routes";
import { send } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";

// A deferred value settles after the loaders returned, while a page kept whole is still being
// rendered: what it reads of who asks, or the cookie it sets, makes the answer theirs too. Its
// Cache-Control must then keep every shared cache (a CDN) from serving it to anybody else.

const Page = ({ data }: { data: { who: Promise<string> } }) => (
  <Suspense fallback={<p>loading</p>}>
    <Await resolve={data.who}>{(who: string) => <p id="who">{who}</p>}</Await>
  </Suspense>
);
const later = <Value,>(read: () => Value) => new Promise<Value>((resolve) => setTimeout(() => resolve(read()), 10));
const readsCookie = ({ header }: LoaderContext) => ({ who: later(() => /who=(\w+)/.exec(header("cookie"))?.[1] ?? "nobody") });
const setsCookie = ({ cookies }: LoaderContext) => ({
  who: later(() => {
    cookies.set("seen", "1");
    return "counted";
  }),
});
const kept = { maxAge: 60 };
const shared = { "Cache-Control": "public, max-age=60" };

const routes = await loadAppRoutes({
  routes: [
    route("test/kept-reads-later", "test/kept-reads-later.tsx"),
    route("test/public-reads-later", "test/public-reads-later.tsx"),
    route("test/kept-sets-later", "test/kept-sets-later.tsx"),
  ],
  files: {
    "test/kept-reads-later.tsx": { module: { default: Page }, server: { cache: kept, load: readsCookie } },
    "test/public-reads-later.tsx": { module: { default: Page }, server: { headers: shared, load: readsCookie } },
    "test/kept-sets-later.tsx": { module: { default: Page }, server: { cache: kept, load: setsCookie } },
  },
});

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({}, { routes });
});
afterAll(() => app.close());

const get = (path: string, headers: Record<string, string> = {}) => send(Number(new URL(app.url).port), path, { method: "GET", headers });

describe("a deferred value of a page rendered whole that reads who asks, or sets a cookie", () => {
  for (const [path, shown] of [
    ["/test/kept-reads-later", "alice"],
    ["/test/public-reads-later", "alice"],
    ["/test/kept-sets-later", "counted"],
  ] as const) {
    it(`${path}: the answer is private, no-store, and the next visitor gets their own`, async () => {
      const alice = await get(path, { Cookie: "who=alice" });
      expect(alice.text()).toContain(`<p id="who">${shown}</p>`);
      expect(alice.headers["cache-control"]).toBe("private, no-store");
      expect(alice.headers.vary).toContain("Cookie");
      const stranger = await get(path);
      expect(stranger.headers["cache-status"]).not.toBe("outpost; hit");
      expect(stranger.text()).not.toContain('<p id="who">alice</p>');
    });
  }
});
