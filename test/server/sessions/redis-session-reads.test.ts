import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_SESSION_BYTES } from "#src/server/sessions/redis-store";
import { CookieJar } from "../../support/cookie-jar";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { redisUp } from "../../support/redis-app";
import { startTestApp, type TestApp } from "../../support/test-app";

const SECRET = "a-redis-session-secret-long-enough-33333";
const visitsOf = (html: string) => Number(/<span id="visits">(\d+)<\/span>/.exec(html)?.[1]);

// What is stored under a session's id is not always what the store wrote: another writer, an older version, a bug.
describe.skipIf(!redisAvailable)("a stored Redis session the store cannot use", () => {
  let redis: TestRedis;
  let app: TestApp;
  beforeAll(async () => {
    redis = await startRedis();
    app = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", SESSION_SECRET: SECRET, SESSION_STORE: "redis", REDIS_URL: redis.url, REDIS_TIMEOUT_MS: "5000" });
    await redisUp(app);
  });
  afterAll(async () => {
    await app?.close();
    await redis?.stop();
  });

  const client = () => app.deps.redis?.client as NonNullable<typeof app.deps.redis>["client"];
  const page = (cookie: string) => fetch(`${app.url}/diagnostics/session`, { headers: { Cookie: cookie } });
  /** A session with two visits, its cookie and its key. */
  const visited = async () => {
    const jar = new CookieJar();
    jar.take(await page(""));
    jar.take(await page(jar.header));
    const id = /outpost\.session=([^;]+)/.exec(jar.header)?.[1] as string;
    return { cookie: jar.header, key: `outpost:session:${id}`, id };
  };

  /** Reads the spoilt session twice: an empty session each time, a new one started, one warning with its reason, nothing stored named. */
  const readsAsEmpty = async ({ cookie, key, id }: { cookie: string; key: string; id: string }, reason: RegExp, secret: string) => {
    const logged = app.logs.length;
    const first = await page(cookie);
    expect(first.status).toBe(200);
    expect(visitsOf(await first.text())).toBe(1);
    expect(first.headers.getSetCookie()[0]).toMatch(/^outpost\.session=[A-Za-z0-9_-]{43};/);
    expect(first.headers.getSetCookie()[0]).not.toContain(id);
    // Deleted, so a copy of the cookie is noticed once.
    expect(await client().exists(key)).toBe(0);
    const again = await page(cookie);
    expect(again.status).toBe(200);
    expect(visitsOf(await again.text())).toBe(1);
    const lines = app.logs.slice(logged).filter((line) => line.level >= 40);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, msg: "session in Redis unreadable: read as an empty session and deleted" });
    expect(String(lines[0]?.reason)).toMatch(reason);
    const text = JSON.stringify(lines);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(id);
  };

  it("reads a session over the cap as empty without fetching it: a 5 MB value", async () => {
    const session = await visited();
    await client().hset(session.key, "v:padding", JSON.stringify(`secret-${"x".repeat(5 * 1024 * 1024)}`));
    await readsAsEmpty(session, new RegExp(`over the ${MAX_SESSION_BYTES} bytes`), "secret-xxxx");
  });

  it("reads a value that is not JSON as an empty session, never as a store outage", async () => {
    const session = await visited();
    await client().hset(session.key, "v:visits", "{secret not json");
    await readsAsEmpty(session, /not JSON/, "secret not json");
  });

  it("reads a value that is JSON with more after it as an empty session, never as keys of its own", async () => {
    const session = await visited();
    await client().hset(session.key, "v:visits", '1,"secret-admin":true');
    await readsAsEmpty(session, /not JSON/, "secret-admin");
  });

  it("reads a value Redis' JSON decoder takes but JSON does not (NaN) as an empty session", async () => {
    const session = await visited();
    await client().hset(session.key, "v:secret-nan", "NaN");
    await readsAsEmpty(session, /not JSON/, "secret-nan");
  });

  it("reads a key that is no session hash (a plain string) as an empty session", async () => {
    const session = await visited();
    await client().set(session.key, "secret garbage");
    await readsAsEmpty(session, /not a hash/, "secret garbage");
  });

  it("keeps a session just under the cap", async () => {
    const session = await visited();
    await client().hset(session.key, "v:padding", JSON.stringify("x".repeat(MAX_SESSION_BYTES - 200)));
    const response = await page(session.cookie);
    expect(visitsOf(await response.text())).toBe(3);
    expect(await client().hexists(session.key, "v:padding")).toBe(1);
  });
});
