import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PageCacheResult } from "#src/server/page-cache/page-cache";
import { route } from "#src/shared/routing/config";
import { loadAppRoutes } from "../../support/app-routes";
import { until } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";

const PAGE = "/test/cached-briefly";
const MAX_AGE_S = 1;
const STALE_S = 2;
/** When each render's loader ran (ms since the epoch): one entry per render, the background ones included. */
const loads: number[] = [];
const results: PageCacheResult[] = [];
let app: TestApp;

const routes = await loadAppRoutes({
  routes: [route("test/cached-briefly", "test/cached-briefly.tsx")],
  files: {
    "test/cached-briefly.tsx": {
      module: { default: ({ data }: { data: { id: string } }) => <p id="render-id">{data.id}</p> },
      server: {
        cache: { maxAge: MAX_AGE_S, staleWhileRevalidate: STALE_S },
        load: async () => {
          loads.push(Date.now());
          // Slow enough that the requests below arrive while a background render is still running.
          await new Promise((resolve) => setTimeout(resolve, 100));
          return { id: `${Math.random()}` };
        },
      },
    },
  },
});

beforeAll(async () => {
  app = await startTestApp({}, { routes, observePageCache: (result) => results.push(result) });
});
afterAll(() => app.close());

const get = async () => {
  const response = await fetch(`${app.url}${PAGE}`);
  return /<p id="render-id">([^<]+)<\/p>/.exec(await response.text())?.[1];
};
/** Waits until the clock is past `ms` after `from`: an entry's times count from before its loader ran. */
const pastAfter = (from: number, ms: number) => until(() => Date.now() > from + ms + 20, ms + 2_000);

describe("a cached page past its maxAge", () => {
  it("is served stale at once while exactly one background render refreshes it; past staleWhileRevalidate it is a miss", async () => {
    const first = await get();
    expect(results).toEqual(["miss"]);
    expect(loads).toHaveLength(1);

    await pastAfter(loads[0] as number, MAX_AGE_S * 1000);
    results.length = 0;
    const stale = await Promise.all(Array.from({ length: 5 }, get));
    expect(stale).toEqual(Array(5).fill(first));
    expect(results).toEqual(Array(5).fill("stale"));

    let refreshed: string | undefined;
    await until(async () => {
      refreshed = await get();
      return refreshed !== first;
    });
    expect(refreshed).toBeTruthy();
    // One background render for all the stale answers above and the ones while waiting.
    expect(loads).toHaveLength(2);
    expect(results.at(-1)).toBe("hit");
    expect(await get()).toBe(refreshed);

    await pastAfter(loads[1] as number, (MAX_AGE_S + STALE_S) * 1000);
    results.length = 0;
    const again = await get();
    expect(results).toEqual(["miss"]);
    expect(again).not.toBe(refreshed);
    expect(loads).toHaveLength(3);
  });
});
