import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route } from "#src/shared/routing/config";
import { loadAppRoutes } from "../../support/app-routes";
import { type ClientResponse, send } from "../../support/raw-http";
import { redisUp } from "../../support/redis-app";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { startTestApp, type TestApp } from "../../support/test-app";

// Two replicas on one Redis, behind a proxy they trust: what a kept page read of who asks (their
// address, whether they sent a cookie or credentials) must never be what another visitor is served.

const HOST = "outpost.test";
const Shown = ({ data }: { data: Record<string, unknown> }) => <pre id="shown">{JSON.stringify(data)}</pre>;
const routes = await loadAppRoutes({
  routes: [route("test/your-address", "test/your-address.tsx"), route("test/your-key", "test/your-key.tsx"), route("test/signed-in", "test/signed-in.tsx")],
  files: {
    "test/your-address.tsx": { module: { default: Shown }, server: { cache: { maxAge: 60 }, load: ({ clientIp }) => ({ seen: clientIp }) } },
    "test/your-key.tsx": { module: { default: Shown }, server: { cache: { maxAge: 60 }, load: ({ clientKey }) => ({ seen: clientKey }) } },
    "test/signed-in.tsx": {
      module: { default: Shown },
      server: { cache: { maxAge: 60 }, load: ({ headers }) => ({ seen: `${headers.cookie ?? "no cookie"}, ${"authorization" in headers ? "signed in" : "guest"}` }) },
    },
  },
});

let redis: TestRedis;
let replicas: TestApp[] = [];
const get = (app: TestApp, path: string, headers: Record<string, string>) => send(Number(new URL(app.url).port), path, { method: "GET", headers: { Host: HOST, ...headers } });
const seen = (response: ClientResponse) => JSON.parse((/<pre id="shown">([^<]+)<\/pre>/.exec(response.text())?.[1] ?? "null").replaceAll("&quot;", '"')).seen;

describe.skipIf(!redisAvailable)("a kept page that read who asks, on two replicas sharing Redis", () => {
  beforeAll(async () => {
    redis = await startRedis();
    const env = { REDIS_URL: redis.url, REDIS_TIMEOUT_MS: "200", TRUST_PROXY: "true" };
    replicas = await Promise.all([startTestApp(env, { routes }), startTestApp(env, { routes })]);
    await Promise.all(replicas.map(redisUp));
  });
  afterAll(async () => {
    await Promise.all(replicas.map((app) => app.close()));
    await redis.stop();
  });

  for (const path of ["/test/your-address", "/test/your-key"]) {
    it(`${path}: one visitor's address is never served to another`, async () => {
      const [one, two] = replicas as [TestApp, TestApp];
      const first = await get(one, path, { "X-Forwarded-For": "203.0.113.7" });
      expect(seen(first)).toContain("203.0.113");
      expect(first.headers["cache-control"]).toBe("private, no-store");
      for (const replica of [two, one]) expect(seen(await get(replica, path, { "X-Forwarded-For": "198.51.100.9" }))).toContain("198.51.100");
    });
  }

  it("a page that looked for a cookie or credentials a visitor did not send is not served to one who did", async () => {
    const [one, two] = replicas as [TestApp, TestApp];
    const stranger = await get(one, "/test/signed-in", {});
    expect(seen(stranger)).toBe("no cookie, guest");
    expect(stranger.headers["cache-control"]).toBe("private, no-store");
    for (const replica of [two, one]) expect(seen(await get(replica, "/test/signed-in", { Cookie: "who=alice", Authorization: "Bearer alice" }))).toBe("who=alice, signed in");
  });
});
