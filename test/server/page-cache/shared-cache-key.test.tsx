import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PageCacheResult } from "#src/server/page-cache/page-cache";
import { route } from "#src/shared/routing/config";
import { loadAppRoutes } from "../../support/app-routes";
import { type ClientResponse, send, until } from "../../support/raw-http";
import { redisUp } from "../../support/redis-app";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { startTestApp, type TestApp } from "../../support/test-app";

// Two replicas on one Redis: what one replica rendered for a hostile request or for one visitor
// must never be what the other serves to everybody else.

const HOST = "outpost.test";
let redis: TestRedis;
let replicas: TestApp[] = [];
const results: PageCacheResult[][] = [[], []];

const Shown = ({ data }: { data: Record<string, string> }) => <pre id="shown">{JSON.stringify(data)}</pre>;
const routes = await loadAppRoutes({
  routes: [route("test/canonical-link", "test/canonical-link.tsx"), route("test/hello", "test/hello.tsx")],
  files: {
    "test/canonical-link.tsx": {
      module: { default: Shown },
      server: { cache: { maxAge: 60 }, load: ({ url }) => ({ canonical: url.origin + url.pathname, id: `${Math.random()}` }) },
    },
    "test/hello.tsx": {
      module: { default: Shown },
      server: { cache: { maxAge: 60 }, load: ({ header }) => ({ hello: /who=(\w+)/.exec(header("cookie"))?.[1] ?? "nobody", id: `${Math.random()}` }) },
    },
  },
});

const portOf = (app: TestApp) => Number(new URL(app.url).port);
const get = (app: TestApp, path: string, headers: Record<string, string> = {}) => send(portOf(app), path, { method: "GET", headers: { Host: HOST, ...headers } });
const shown = (response: ClientResponse) => JSON.parse((/<pre id="shown">([^<]+)<\/pre>/.exec(response.text())?.[1] ?? "null").replaceAll("&quot;", '"'));

describe.skipIf(!redisAvailable)("a kept page's key, shared by two replicas through Redis", () => {
  beforeAll(async () => {
    redis = await startRedis();
    const env = { REDIS_URL: redis.url, REDIS_TIMEOUT_MS: "100", TRUST_PROXY: "true" };
    replicas = await Promise.all(results.map((seen) => startTestApp(env, { routes, observePageCache: (result) => seen.push(result) })));
    await Promise.all(replicas.map(redisUp));
  });
  afterAll(async () => {
    await Promise.all(replicas.map((app) => app.close()));
    await redis.stop();
  });

  it("a forwarded host rendered on one replica is never the site's page on the other", async () => {
    const [one, two] = replicas as [TestApp, TestApp];
    const poisoned = await get(one, "/test/canonical-link", { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" });
    expect(shown(poisoned).canonical).toBe("https://evil.example/test/canonical-link");
    const site = await get(one, "/test/canonical-link");
    expect(shown(site).canonical).toBe(`http://${HOST}/test/canonical-link`);
    // Once the site's own render is in Redis, the other replica serves that one.
    await until(async () => shown(await get(two, "/test/canonical-link")).id === shown(site).id, 2_000);
    expect(shown(await get(two, "/test/canonical-link")).canonical).toBe(`http://${HOST}/test/canonical-link`);
  });

  it("a page that read the cookie header for one visitor is never served to another, on either replica", async () => {
    const [one, two] = replicas as [TestApp, TestApp];
    const alice = await get(one, "/test/hello", { Cookie: "who=alice" });
    expect(shown(alice).hello).toBe("alice");
    expect(alice.headers["cache-control"]).toBe("private, no-store");
    for (const replica of [two, one, two]) {
      const stranger = await get(replica, "/test/hello");
      expect(shown(stranger).hello).toBe("nobody");
    }
  });
});
