import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CookieJar } from "../../support/cookie-jar";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { until } from "../../support/raw-http";
import { redisUp } from "../../support/redis-app";
import { startTestApp, type TestApp } from "../../support/test-app";
import type { SessionShown } from "../../support/test-routes";

const SECRET = "a-redis-session-secret-long-enough-11111";

const visitsOf = (html: string) => Number(/<span id="visits">(\d+)<\/span>/.exec(html)?.[1]);
const nameOf = (html: string) => /<span id="session-name">([^<]*)<\/span>/.exec(html)?.[1];
const shownOf = (html: string) => JSON.parse(/<pre id="session">([^<]*)<\/pre>/.exec(html)?.[1]?.replaceAll("&quot;", '"') ?? "null") as SessionShown;

// Requests with one cookie at once, as a browser's tabs, prefetches and a second device send them.
describe.skipIf(!redisAvailable)("one Redis session under concurrent requests", () => {
  let redis: TestRedis;
  let replicas: TestApp[];
  beforeAll(async () => {
    redis = await startRedis();
    // A generous command bound: these tests are about races, not a slow machine's timeouts.
    const env = { ENABLE_DIAGNOSTIC_ROUTES: "true", SESSION_SECRET: SECRET, SESSION_STORE: "redis", REDIS_URL: redis.url, REDIS_TIMEOUT_MS: "5000" };
    replicas = await Promise.all([1, 2].map(() => startTestApp(env)));
    await Promise.all(replicas.map(redisUp));
  });
  afterAll(async () => {
    await Promise.all((replicas ?? []).map((replica) => replica.close()));
    await redis?.stop();
  });

  const at = (index: number) => replicas[index % replicas.length] as TestApp;
  const page = async (cookie: string, index = 0) => {
    const response = await fetch(`${at(index).url}/diagnostics/session`, { headers: { Cookie: cookie } });
    expect(response.status).toBe(200);
    return response.text();
  };
  const post = (cookie: string, body: string, path = "/diagnostics/session", index = 0) =>
    fetch(`${at(index).url}${path}`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie }, body, redirect: "manual" });

  /** A named session's cookie: signed in, as far as the diagnostics page goes. */
  const signedIn = async () => {
    const jar = new CookieJar();
    jar.take(await post("", "name=Ada"));
    return jar.header;
  };

  it("signs out for good: requests that read the session before intent=clear never write it back", async () => {
    let resurrected = 0;
    for (let trial = 0; trial < 20; trial++) {
      const cookie = await signedIn();
      // A copy of the cookie kept busy on a page that writes the session, on both replicas.
      let busy = true;
      const keepers = Array.from({ length: 6 }, async (_, index) => {
        while (busy) await page(cookie, index);
      });
      await new Promise((resolve) => setTimeout(resolve, 15));
      const cleared = await post(cookie, "intent=clear", "/diagnostics/session", trial);
      expect(cleared.status).toBe(303);
      busy = false;
      await Promise.all(keepers);
      if (nameOf(await page(cookie)) !== "") resurrected++;
    }
    expect(resurrected).toBe(0);
  });

  it("counts 30 concurrent visits with one cookie as 30", async () => {
    const cookie = await signedIn();
    const before = visitsOf(await page(cookie));
    await Promise.all(Array.from({ length: 30 }, (_, index) => page(cookie, index)));
    expect(visitsOf(await page(cookie))).toBe(before + 31);
  });

  it("keeps concurrent changes to different keys: a name posted amid visits survives them", async () => {
    for (let trial = 0; trial < 5; trial++) {
      const cookie = await signedIn();
      const visits = Array.from({ length: 10 }, (_, index) => page(cookie, index));
      const named = post(cookie, `name=Grace${trial}`, "/diagnostics/session", trial);
      await Promise.all([...visits, named]);
      expect(nameOf(await page(cookie))).toBe(`Grace${trial}`);
    }
  });

  it("shows a flash to exactly one of five concurrent readers", async () => {
    for (let trial = 0; trial < 5; trial++) {
      const jar = new CookieJar();
      jar.take(await post("", "notice=Saved", "/test/session"));
      const readers = await Promise.all(Array.from({ length: 5 }, (_, index) => fetch(`${at(index).url}/test/session`, { headers: { Cookie: jar.header } })));
      const shown = await Promise.all(readers.map(async (response) => shownOf(await response.text())));
      expect(shown.filter((one) => one.notice === "Saved")).toHaveLength(1);
      // The reader that took it sees it in each of its reads.
      expect(shown.filter((one) => one.again === "Saved")).toHaveLength(1);
    }
  });

  it("puts a flash back when the client that read it left before its answer", async () => {
    const jar = new CookieJar();
    jar.take(await post("", "notice=Kept", "/test/session"));
    const seen = async () => shownOf(await (await fetch(`${at(0).url}/test/session`, { headers: { Cookie: jar.header } })).text()).notice;
    // Held at its read while Redis stalls, so the visitor is gone before the loader takes the flash.
    redis.pause();
    try {
      const leaving = new AbortController();
      const left = fetch(`${at(0).url}/test/session`, { headers: { Cookie: jar.header }, signal: leaving.signal }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 150));
      leaving.abort();
      await left;
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      redis.resume();
    }
    let shown: string | null = null;
    await until(async () => {
      shown = await seen();
      return shown !== null;
    });
    expect(shown).toBe("Kept");
  });
});
