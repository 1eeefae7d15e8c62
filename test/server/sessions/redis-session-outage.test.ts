import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_HEADER } from "#src/shared/routing/data-request";
import { CookieJar } from "../../support/cookie-jar";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { redisDown, redisUp } from "../../support/redis-app";
import { startTestApp, type TestApp } from "../../support/test-app";

const SECRET = "a-redis-session-secret-long-enough-22222";

// Writes Redis cannot take: a new visitor's first visit, intent=clear, a POST without a session yet.
describe.skipIf(!redisAvailable)("a session write while Redis is down", () => {
  let redis: TestRedis;
  let app: TestApp;
  let cookie: string;
  let unavailable = 0;
  beforeAll(async () => {
    redis = await startRedis();
    app = await startTestApp(
      { ENABLE_DIAGNOSTIC_ROUTES: "true", SESSION_SECRET: SECRET, SESSION_STORE: "redis", REDIS_URL: redis.url },
      { observeSessionUnavailable: () => unavailable++ },
    );
    await redisUp(app);
    const jar = new CookieJar();
    jar.take(await fetch(`${app.url}/diagnostics/session`));
    cookie = jar.header;
    await redis.kill();
    await redisDown(app);
  });
  afterAll(async () => {
    await app?.close();
    await redis?.stop();
  });

  const writes = [
    { name: "a new visitor's visit", method: "GET", session: false, body: undefined },
    { name: "intent=clear", method: "POST", session: true, body: "intent=clear" },
    { name: "a POST starting a session", method: "POST", session: false, body: "name=Ada" },
  ];
  const send = (path: string, { method, session, body }: (typeof writes)[number], headers: Record<string, string> = {}) =>
    fetch(`${app.url}${path}`, {
      method,
      body,
      redirect: "manual",
      headers: { ...headers, ...(session ? { Cookie: cookie } : {}), ...(body ? { "Content-Type": "application/x-www-form-urlencoded" } : {}) },
    });

  it.each(writes)("answers $name with the error page: 503, Retry-After, HTML; counted, not an error", async (write) => {
    const logged = app.logs.length;
    const counted = unavailable;
    const response = await send("/diagnostics/session", write);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(response.headers.getSetCookie()).toEqual([]);
    const html = await response.text();
    expect(html).toContain('data-status="503"');
    expect(html).toContain("Sessions are unavailable for a moment");
    expect(unavailable).toBe(counted + 1);
    const lines = app.logs.slice(logged);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    // At most one line per 10 s for the whole outage (the first of these requests writes it); each is counted.
    expect(lines.filter((line) => line.level === 40 && line.msg !== "session not saved: its store is unreachable")).toEqual([]);
  });

  it("warns once for many refused writes in a row, not once each; every one is counted", async () => {
    const counted = unavailable;
    const logged = app.logs.length;
    for (let i = 0; i < 5; i++) expect((await send("/diagnostics/session", writes[0] as (typeof writes)[number])).status).toBe(503);
    expect(unavailable).toBe(counted + 5);
    const warned = app.logs.slice(logged).filter((line) => line.msg === "session not saved: its store is unreachable");
    expect(warned.length).toBeLessThanOrEqual(1);
    expect(app.logs.filter((line) => line.msg === "session not saved: its store is unreachable").length).toBeGreaterThanOrEqual(1);
  });

  it.each(writes)("answers $name as a data request with 200 and the 503 inside, with Retry-After", async (write) => {
    const response = await send("/__data/diagnostics/session", write, { [BUILD_HEADER]: app.deps.assets.manifest.buildId });
    expect(response.status).toBe(200);
    expect(response.headers.get("retry-after")).toBe("5");
    const answer = (await response.json()) as { kind: string; status: number; state: { error?: { error: { status: number } } } };
    expect(answer).toMatchObject({ kind: "state", status: 503 });
    expect(answer.state.error?.error.status).toBe(503);
  });

  it("answers HEAD with GET's 503 and no body", async () => {
    const response = await fetch(`${app.url}/diagnostics/session`, { method: "HEAD" });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(await response.text()).toBe("");
  });
});
