import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, until } from "../../support/raw-http";
import { redisUp } from "../../support/redis-app";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { startTestApp, type TestApp } from "../../support/test-app";

const PAGE = "/diagnostics/page-cache";
/** The site's one name, as a load balancer in front of the replicas passes it on (the origin is part of a page's key). */
const HOST = "outpost.test";
let redis: TestRedis;
let replicas: TestApp[] = [];

/** A render is stored just after it is answered: the replicas agree once it is in Redis, and stay so. */
async function agreedRender(one: TestApp, two: TestApp): Promise<string | undefined> {
  let id: string | undefined;
  await until(async () => {
    id = await renderId(one);
    return id !== undefined && (await renderId(two)) === id;
  }, 2_000);
  return id;
}

const portOf = (app: TestApp) => Number(new URL(app.url).port);

const revalidate = (app: TestApp) =>
  send(portOf(app), PAGE, {
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: `http://${HOST}`, Host: HOST },
    body: Buffer.from("intent=revalidate"),
  });

const renderId = async (app: TestApp) => /<p id="render-id">([^<]+)<\/p>/.exec((await send(portOf(app), PAGE, { method: "GET", headers: { Host: HOST } })).text())?.[1];

describe.skipIf(!redisAvailable)("the page cache with REDIS_URL", () => {
  beforeAll(async () => {
    redis = await startRedis();
    const env = { ENABLE_DIAGNOSTIC_ROUTES: "true", REDIS_URL: redis.url, REDIS_TIMEOUT_MS: "100" };
    replicas = await Promise.all([startTestApp(env), startTestApp(env)]);
    await Promise.all(replicas.map(redisUp));
  });
  afterAll(async () => {
    redis.resume();
    await Promise.all(replicas.map((app) => app.close()));
    await redis.stop();
  });

  it("is one copy for every replica, and a revalidation on one is seen on the other within a second", async () => {
    const [one, two] = replicas as [TestApp, TestApp];
    const first = await agreedRender(one, two);
    expect(await renderId(two)).toBe(first);
    expect(await renderId(one)).toBe(first);
    const posted = await revalidate(one);
    expect(posted.status).toBe(303);
    const started = Date.now();
    let seen = await renderId(two);
    while (seen === first && Date.now() - started < 1_000) seen = await renderId(two);
    expect(seen).not.toBe(first);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await agreedRender(one, two)).not.toBe(first);
  });

  it("does not lose a revalidation made while Redis is frozen: its replica never serves the old page again, and Redis drops it once it answers", async () => {
    const [one, two] = replicas as [TestApp, TestApp];
    const old = await agreedRender(one, two);
    redis.pause();
    try {
      const posted = await revalidate(one);
      expect(posted.status).toBe(303);
    } finally {
      redis.resume();
    }
    // Redis still holds the old page until the drop is tried again: the replica that dropped it knows better.
    for (let i = 0; i < 5; i++) expect(await renderId(one)).not.toBe(old);
    // Every replica renders afresh once the retried drop reaches Redis (tried every second).
    await until(async () => (await renderId(two)) !== old, 5_000);
    expect(await agreedRender(one, two)).not.toBe(old);
  });

  it("keeps a visitor waiting for one timed-out read while Redis is frozen, never also for the write", async () => {
    // A timeout long enough to tell one wait from two on a busy machine.
    const timeoutMs = 1_500;
    const patient = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", REDIS_URL: redis.url, REDIS_TIMEOUT_MS: String(timeoutMs) });
    try {
      await redisUp(patient);
      redis.pause();
      const started = Date.now();
      const response = await fetch(`${patient.url}${PAGE}?frozen=${Date.now()}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('id="render-id"');
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(timeoutMs - 50);
      expect(waited).toBeLessThan(timeoutMs + 1_000);
    } finally {
      redis.resume();
      await patient.close();
    }
  });

  it("keeps answering while Redis is full and refuses writes, and a revalidation on one replica still reaches the other", async () => {
    const [one, two] = replicas as [TestApp, TestApp];
    const first = await agreedRender(one, two);
    const client = one.deps.redis?.client as NonNullable<TestApp["deps"]["redis"]>["client"];
    await client.config("SET", "maxmemory-policy", "noeviction");
    await client.config("SET", "maxmemory", "1");
    try {
      await expect(client.set("outpost:full-probe", "x")).rejects.toThrow(/OOM/);
      // Full: Redis refuses the page's write (OOM), so each render is answered and not kept.
      for (let i = 0; i < 3; i++) expect(await renderId(one)).toBeDefined();
      expect((await revalidate(one)).status).toBe(303);
      const started = Date.now();
      let seen = await renderId(two);
      while (seen === first && Date.now() - started < 1_000) seen = await renderId(two);
      expect(seen).not.toBe(first);
    } finally {
      await client.config("SET", "maxmemory", "0");
    }
  });

  it("still answers, within the Redis timeout, while Redis is frozen", async () => {
    const [one] = replicas as [TestApp];
    redis.pause();
    try {
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const response = await fetch(`${one.url}${PAGE}`);
        expect(response.status).toBe(200);
        expect(await response.text()).toContain('id="render-id"');
        // One timed-out read at most, besides the render.
        expect(Date.now() - started).toBeLessThan(1_000);
      }
    } finally {
      redis.resume();
    }
  });
});
