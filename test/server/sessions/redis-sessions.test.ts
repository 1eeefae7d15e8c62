import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FLASH_LEASE_MS, MAX_SESSION_BYTES } from "#src/server/sessions/redis-store";
import { CookieJar } from "../../support/cookie-jar";
import { until } from "../../support/raw-http";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { redisDown, redisUp } from "../../support/redis-app";
import { startTestApp, type TestApp } from "../../support/test-app";
import { sessionLoaderRuns } from "../../support/test-routes";

const SECRET = "a-redis-session-secret-long-enough-00000";

const visitsOf = (html: string) => Number(/<span id="visits">(\d+)<\/span>/.exec(html)?.[1]);
const nameOf = (html: string) => /<span id="session-name">([^<]*)<\/span>/.exec(html)?.[1];

describe.skipIf(!redisAvailable)("sessions in Redis (SESSION_STORE=redis)", () => {
  let redis: TestRedis;
  let replicas: TestApp[];
  let unavailable = 0;
  beforeAll(async () => {
    redis = await startRedis();
    const env = { ENABLE_DIAGNOSTIC_ROUTES: "true", SESSION_SECRET: SECRET, SESSION_STORE: "redis", REDIS_URL: redis.url };
    replicas = await Promise.all([1, 2, 3].map(() => startTestApp(env, { observeSessionUnavailable: () => unavailable++ })));
    await Promise.all(replicas.map(redisUp));
  });
  afterAll(async () => {
    await Promise.all((replicas ?? []).map((replica) => replica.close()));
    await redis?.stop();
  });

  /** A command on the test's Redis, through redis-cli. */
  const redisCli = (...args: string[]) => execFileSync("redis-cli", ["-u", redis.url, ...args], { encoding: "utf8" }).trim();
  const sessionKeys = () => redisCli("--scan", "--pattern", "outpost:session:*").split("\n").filter(Boolean);

  const page = (replica: TestApp, cookie: string) => fetch(`${replica.url}/diagnostics/session`, { headers: { Cookie: cookie } });
  const post = (replica: TestApp, cookie: string, body: string) =>
    fetch(`${replica.url}/diagnostics/session`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
      body,
      redirect: "manual",
    });

  it("shares a session across replicas; cleared on one, a copy of its cookie is empty on all three", async () => {
    const [first, second, third] = replicas as [TestApp, TestApp, TestApp];
    const jar = new CookieJar();
    jar.take(await page(first, ""));
    jar.take(await post(first, jar.header, "name=Ada"));
    // The cookie carries an id, never the values.
    expect(jar.header).toMatch(/^outpost\.session=[A-Za-z0-9_-]{43}; outpost\.session\.sig=/);
    const copied = jar.header;

    const onThird = await (await page(third, copied)).text();
    expect(nameOf(onThird)).toBe("Ada");
    expect(visitsOf(onThird)).toBe(2);

    const cleared = await post(second, copied, "intent=clear");
    expect(cleared.status).toBe(303);
    expect(cleared.headers.getSetCookie()[0]).toMatch(/^outpost\.session=; path=\/; expires=Thu, 01 Jan 1970/);
    for (const replica of replicas) {
      const html = await (await page(replica, copied)).text();
      expect(nameOf(html)).toBe("");
      expect(visitsOf(html)).toBe(1);
    }
  });

  it("keeps the values for the session's lifetime, renewed by every write", async () => {
    const jar = new CookieJar();
    jar.take(await page(replicas[0] as TestApp, ""));
    const [key] = sessionKeys().filter((name) => jar.header.includes(name.slice("outpost:session:".length)));
    expect(key).toBeDefined();
    const fortnight = 14 * 24 * 60 * 60 * 1000;
    redisCli("PEXPIRE", key as string, "60000");
    jar.take(await page(replicas[1] as TestApp, jar.header));
    expect(Number(redisCli("PTTL", key as string))).toBeGreaterThan(fortnight - 60_000);
  });

  it("caps a session at 64 KB with an error naming the size and the limit; just under is kept", async () => {
    const app = replicas[0] as TestApp;
    const post = (size: number, cookie = "") =>
      fetch(`${app.url}/test/session`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie }, body: `size=${size}`, redirect: "manual" });
    const kept = await post(MAX_SESSION_BYTES - 100);
    expect(kept.status).toBe(303);
    const before = app.logs.length;
    const refused = await post(MAX_SESSION_BYTES + 1);
    expect(refused.status).toBe(500);
    const errors = app.logs.slice(before).filter((line) => line.level >= 50);
    expect(JSON.stringify(errors)).toMatch(/65\d{3} bytes, over the 65536 bytes a Redis session may hold/);
  });

  it("caps what a session holds in Redis, not only what one request writes: refused atomically, nothing written", async () => {
    const app = replicas[0] as TestApp;
    const post = (size: number, cookie = "") =>
      fetch(`${app.url}/test/session`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie }, body: `size=${size}`, redirect: "manual" });
    const jar = new CookieJar();
    jar.take(await post(10));
    const key = `outpost:session:${/outpost\.session=([^;]+)/.exec(jar.header)?.[1]}`;
    // Another request's key, already stored: with this request's padding the session would be over 64 KB.
    await app.deps.redis?.client.hset(key, "v:other", JSON.stringify("y".repeat(40_000)));
    const before = app.logs.length;
    expect((await post(30_000, jar.header)).status).toBe(500);
    expect(JSON.stringify(app.logs.slice(before))).toMatch(/7\d{4} bytes, over the 65536 bytes a Redis session may hold/);
    expect((await app.deps.redis?.client.hget(key, "v:padding"))?.length).toBe(12);
  });

  it("runs a loader that touched the session before Redis answered once more, the first time only: then the page loads the session first", async () => {
    const app = replicas[0] as TestApp;
    const jar = new CookieJar();
    jar.take(await fetch(`${app.url}/test/session`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "user=ada", redirect: "manual" }));
    const runs = async () => {
      const before = sessionLoaderRuns.count;
      const response = await fetch(`${app.url}/test/session-runs`, { headers: { Cookie: jar.header } });
      expect(await response.text()).toContain('<p id="session-user">ada</p>');
      return sessionLoaderRuns.count - before;
    };
    expect(await runs()).toBe(2);
    expect(await runs()).toBe(1);
    expect(await runs()).toBe(1);
  });

  it("lets a page that does not use the session answer while Redis stalls; the session page waits for it", async () => {
    const patient = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", SESSION_SECRET: SECRET, SESSION_STORE: "redis", REDIS_URL: redis.url, REDIS_TIMEOUT_MS: "20000" });
    try {
      await redisUp(patient);
      const jar = new CookieJar();
      jar.take(await post(patient, "", "name=Ada"));
      expect((await page(patient, jar.header)).status).toBe(200);
      redis.pause();
      let sessionSettled = false;
      const sessionPage = page(patient, jar.header).then(async (response) => {
        sessionSettled = true;
        return { status: response.status, html: await response.text() };
      });
      const plain = await fetch(`${patient.url}/test/items/7`, { headers: { Cookie: jar.header } });
      expect(plain.status).toBe(200);
      expect(await plain.text()).toContain('<p id="item">7</p>');
      expect(sessionSettled).toBe(false);
      redis.resume();
      const answered = await sessionPage;
      expect(answered.status).toBe(200);
      expect(nameOf(answered.html)).toBe("Ada");
    } finally {
      redis.resume();
      await patient.close();
    }
  });

  it("loses no flash to a read whose answer never came: the read's lease lapses and the next read puts the flash back", async () => {
    const app = replicas[0] as TestApp;
    const jar = new CookieJar();
    jar.take(await page(app, ""));
    jar.take(await post(app, jar.header, "intent=flash&message=Kept"));
    const key = `outpost:session:${/outpost\.session=([^;]+)/.exec(jar.header)?.[1]}`;
    const flashOf = async () => /<p id="session-flash" role="status">([^<]*)<\/p>/.exec(await (await page(app, jar.header)).text())?.[1];
    // Redis stalls past REDIS_TIMEOUT_MS: the page answers 503, and the read runs once Redis wakes.
    redis.pause();
    try {
      expect((await page(app, jar.header)).status).toBe(503);
    } finally {
      redis.resume();
    }
    // That read took the flash under its lease: hidden from the next reads until it lapses.
    const taken = "v:outpost.flash-taken:message";
    await until(() => redisCli("HEXISTS", key, taken) === "1");
    // JSON, under a value field: a replica of an older build reads a value it ignores, not a broken session.
    const [deadline, value] = JSON.parse(redisCli("HGET", key, taken)) as [number, string];
    expect(value).toBe("Kept");
    // Every field one of the kinds an older build reads (the marker, a value, a flash), each JSON.
    const fields = redisCli("HGETALL", key).split("\n");
    for (let i = 0; i < fields.length; i += 2) {
      const name = fields[i] as string;
      if (name === "_") continue;
      expect(name).toMatch(/^[vf]:/);
      expect(() => JSON.parse(fields[i + 1] as string), name).not.toThrow();
    }
    expect(Number(deadline) - Date.now()).toBeGreaterThan(FLASH_LEASE_MS - 2_000);
    expect(Number(deadline) - Date.now()).toBeLessThanOrEqual(FLASH_LEASE_MS);
    expect(await flashOf()).toBeUndefined();
    // Lapsed (moved into the past here rather than waited for): the next read shows it, once.
    redisCli("HSET", key, taken, `[${Date.now() - 1},"Kept"]`);
    expect(await flashOf()).toBe("Kept");
    expect(await flashOf()).toBeUndefined();
    expect(redisCli("HEXISTS", key, taken)).toBe("0");
  });

  it("answers a session page 503 with Retry-After through the error page while Redis is down, counted and not reported; other pages answer as usual", async () => {
    const app = replicas[0] as TestApp;
    const jar = new CookieJar();
    jar.take(await post(app, "", "name=Ada"));
    await redis.kill();
    await Promise.all(replicas.map(redisDown));
    const counted = unavailable;
    const logged = app.logs.length;
    try {
      const refused = await page(app, jar.header);
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("5");
      expect(await refused.text()).toContain('data-status="503"');
      const data = await fetch(`${app.url}/__data/diagnostics/session`, { headers: { Cookie: jar.header, "X-Outpost-Build": app.deps.assets.manifest.buildId } });
      expect(data.status).toBe(200);
      expect(((await data.json()) as { status: number }).status).toBe(503);
      expect(data.headers.get("retry-after")).toBe("5");
      // A write (a new visitor's first visit) cannot be kept either: 503, with Retry-After.
      const unsaved = await page(app, "");
      expect(unsaved.status).toBe(503);
      expect(unsaved.headers.get("retry-after")).toBe("5");
      expect(unavailable).toBe(counted + 3);

      for (const path of ["/test/items/1", "/", "/diagnostics"]) {
        const plain = await fetch(`${app.url}${path}`, { headers: { Cookie: jar.header } });
        expect(plain.status).toBe(200);
        await plain.body?.cancel();
      }
      expect(app.logs.slice(logged).filter((line) => line.level >= 50)).toEqual([]);
    } finally {
      await redis.start();
      await Promise.all(replicas.map(redisUp));
    }
  });
});
