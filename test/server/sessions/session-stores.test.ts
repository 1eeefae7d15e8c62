import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEnv } from "#src/server/config/env.server";
import { CookieJar } from "../../support/cookie-jar";
import { startTestApp, type TestApp } from "../../support/test-app";
import { redisUp, sessionStores } from "../../support/redis-app";
import type { SessionShown } from "../../support/test-routes";

const SECRET = "a-session-secret-that-is-long-enough-000";

const { stores, stop } = sessionStores();
afterAll(stop);

describe.each(stores)("the session in the $store store", ({ store, env }) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ SESSION_SECRET: SECRET, ...(await env()) });
    if (store === "redis") await redisUp(app);
  });
  afterAll(() => app.close());

  const shown = async (jar: CookieJar): Promise<SessionShown> => {
    const response = await fetch(`${app.url}/test/session`, { headers: { Cookie: jar.header } });
    expect(response.status).toBe(200);
    jar.take(response);
    const html = await response.text();
    return JSON.parse(/<pre id="session">([^<]*)<\/pre>/.exec(html)?.[1]?.replaceAll("&quot;", '"') ?? "null") as SessionShown;
  };
  const post = async (jar: CookieJar, fields: Record<string, string>) => {
    const response = await fetch(`${app.url}/test/session`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: jar.header },
      body: new URLSearchParams(fields),
      redirect: "manual",
    });
    expect(response.status).toBe(303);
    jar.take(response);
    return response;
  };

  it("gives a flashed value to the next request that reads it (to each of its reads), then never again", async () => {
    const jar = new CookieJar();
    await post(jar, { notice: "Note saved", user: "ada" });
    expect(await shown(jar)).toMatchObject({ notice: "Note saved", again: "Note saved", user: "ada" });
    expect(await shown(jar)).toMatchObject({ notice: null, again: null, user: "ada" });
  });

  it("regenerates: the same values under a new cookie", async () => {
    const jar = new CookieJar();
    await post(jar, { size: "10" });
    const before = new CookieJar();
    before.take(await post(jar, { notice: "kept" }));
    await post(jar, { user: "grace" });
    expect(jar.header).not.toBe(before.header);
    expect(await shown(jar)).toMatchObject({ user: "grace", padding: 10, notice: "kept" });
    // In Redis the old id is ended: a copy of the cookie from before signing in is no session.
    if (store === "redis") expect(await shown(before)).toMatchObject({ user: null, padding: 0, notice: null });
  });
});

it("refuses SESSION_STORE=redis without REDIS_URL, naming both", () => {
  expect(() => loadEnv({ SESSION_STORE: "redis" })).toThrow(/SESSION_STORE: SESSION_STORE=redis needs REDIS_URL/);
  expect(() => loadEnv({ SESSION_STORE: "memcached" })).toThrow(/SESSION_STORE: /);
  expect(loadEnv({}).SESSION_STORE).toBe("cookie");
});
