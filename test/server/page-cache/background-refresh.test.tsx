import { _default, coerce, int, object } from "zod/mini";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PageCacheResult } from "#src/server/page-cache/page-cache";
import { route } from "#src/shared/routing/config";
import { loadAppRoutes } from "../../support/app-routes";
import { until } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";

// A background (stale-while-revalidate) render must see the request as its visitor's render did:
// the same URL, origin and query. One that fails is reported once, not on every stale answer.

const MAX_AGE_S = 1;
const STALE_S = 5;
const results: PageCacheResult[] = [];
let failing = false;
let app: TestApp;

type Seen = { id: string; href: string; page: number };
const Seen = ({ data }: { data: Seen }) => <p id="seen">{JSON.stringify(data)}</p>;

const routes = await loadAppRoutes({
  routes: [route("test/refreshed", "test/refreshed.tsx"), route("test/refresh-fails", "test/refresh-fails.tsx")],
  files: {
    "test/refreshed.tsx": {
      module: { default: Seen },
      server: {
        cache: { maxAge: MAX_AGE_S, staleWhileRevalidate: STALE_S },
        searchParams: object({ page: _default(coerce.number().check(int()), 1) }),
        load: ({ url, search }) => ({ id: `${Math.random()}`, href: url.href, page: (search as { page: number }).page }),
      },
    },
    "test/refresh-fails.tsx": {
      module: { default: Seen },
      server: {
        cache: { maxAge: MAX_AGE_S, staleWhileRevalidate: STALE_S },
        load: ({ url }) => {
          if (failing) throw new Error("the data source is down");
          return { id: `${Math.random()}`, href: url.href, page: 0 };
        },
      },
    },
  },
});

beforeAll(async () => {
  app = await startTestApp({}, { routes, observePageCache: (result) => results.push(result) });
});
afterAll(() => app.close());

const seen = async (path: string): Promise<Seen> => {
  const html = await (await fetch(`${app.url}${path}`)).text();
  return JSON.parse((/<p id="seen">([^<]+)<\/p>/.exec(html)?.[1] ?? "null").replaceAll("&quot;", '"').replaceAll("&amp;", "&")) as Seen;
};
const pastMaxAge = () => new Promise((resolve) => setTimeout(resolve, MAX_AGE_S * 1000 + 100));

describe("a background refresh", () => {
  it("renders a page with a searchParams schema that reads its URL, as its visitor's render did", async () => {
    const path = "/test/refreshed?page=2&b=1";
    const first = await seen(path);
    expect(first).toMatchObject({ href: `${app.url}${path}`, page: 2 });
    await pastMaxAge();
    results.length = 0;
    const stale = await fetch(`${app.url}${path}`);
    expect(await stale.text()).toContain(first.id);
    expect(results).toEqual(["stale"]);
    let refreshed: Seen | undefined;
    await until(async () => {
      refreshed = await seen(path);
      return refreshed.id !== first.id;
    }, 3_000);
    expect(refreshed).toMatchObject({ href: `${app.url}${path}`, page: 2 });
    expect(app.logs.filter((line) => line.msg === "render error")).toEqual([]);
    expect(stale.headers.get("cache-status")).toBe("outpost; fwd=stale");
  });

  it("that fails is reported once, however many stale answers follow", async () => {
    const path = "/test/refresh-fails";
    const first = await seen(path);
    failing = true;
    await pastMaxAge();
    const before = app.logs.length;
    results.length = 0;
    for (let i = 0; i < 10; i++) {
      expect((await seen(path)).id).toBe(first.id);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(results).toEqual(Array(10).fill("stale"));
    const errors = app.logs.slice(before).filter((line) => line.msg === "render error");
    expect(errors).toHaveLength(1);
    failing = false;
  });
});
