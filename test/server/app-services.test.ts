import { afterAll, describe, expect, it } from "vitest";
import { loadEnv } from "#src/server/config/env.server";
import { createAppServices } from "#src/server/services/app-services";
import { CookieJar } from "../support/cookie-jar";
import { memoryLogger, startTestApp, type TestApp } from "../support/test-app";
import { testRoutes } from "../support/test-routes";

const SECRET = "services-secret-that-is-long-enough-000000";
const OTHER_SECRET = "other-secret-that-is-long-enough-11111111";
const envVars = { NODE_ENV: "production", ENABLE_DIAGNOSTIC_ROUTES: "true", SESSION_SECRET: SECRET };

describe("the app's services, built in one place (createAppServices)", () => {
  it("are this process's own without shared state: no Redis, sessions in the signed cookie, limits counted here", () => {
    const { logger } = memoryLogger();
    const services = createAppServices({ env: loadEnv(envVars), logger, routes: testRoutes });
    expect(services.redis).toBeUndefined();
    expect(services.sharedAssets).toBeUndefined();
    expect(services.sessions.store.fetches).toBe(false);
    expect(services.pageCache).toBeDefined();
    // What route code sees on `context.services`: the same limits, no feedback while reporting is off.
    expect(services.route.rateLimits).toBe(services.rateLimits);
    expect(services.route.userFeedback).toBeUndefined();
  });

  it("build no page cache for the build's prerender run", () => {
    const services = createAppServices({ env: loadEnv(envVars), logger: memoryLogger().logger, routes: testRoutes, prerendering: true });
    expect(services.pageCache).toBeUndefined();
  });

  it("refuse SESSION_STORE=redis without the shared Redis, naming what is missing", () => {
    const env = loadEnv({ ...envVars, SESSION_STORE: "redis", REDIS_URL: "redis://127.0.0.1:1" });
    expect(() => createAppServices({ env, logger: memoryLogger().logger, routes: testRoutes })).toThrow(/SESSION_STORE=redis needs the Redis connection/);
  });

  it("warn, in the app's log, when no SESSION_SECRET signs the sessions", () => {
    const { logger, lines } = memoryLogger();
    createAppServices({ env: loadEnv({ NODE_ENV: "production" }), logger, routes: testRoutes });
    expect(lines.some((line) => line.level === 40 && line.msg.startsWith("SESSION_SECRET is not set"))).toBe(true);
  });
});

describe("apps and their services", () => {
  const apps: TestApp[] = [];
  afterAll(() => Promise.all(apps.map((app) => app.close())));
  const guarded = (app: TestApp, jar: CookieJar) => fetch(`${app.url}/diagnostics/guarded/inner`, { headers: { Cookie: jar.header }, redirect: "manual" });

  it("are what each app was handed: two apps given one set share its sessions, an app with its own never reads theirs", async () => {
    const services = createAppServices({ env: loadEnv(envVars), logger: memoryLogger().logger, routes: testRoutes });
    const one = await startTestApp(envVars, { services });
    // Its own environment names another secret: the keys it signs with are the services'.
    const two = await startTestApp({ ...envVars, SESSION_SECRET: OTHER_SECRET }, { services });
    const other = await startTestApp({ ...envVars, SESSION_SECRET: OTHER_SECRET });
    apps.push(one, two, other);
    const jar = new CookieJar();
    jar.take(
      await fetch(`${one.url}/diagnostics/session`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "name=Ada",
        redirect: "manual",
      }),
    );
    // Read (and remembered) by the first app, then by the second through the same services.
    expect((await guarded(one, jar)).status).toBe(200);
    expect((await guarded(two, jar)).status).toBe(200);
    // Another app in this process signs with other keys: what the others remembered is not its.
    expect((await guarded(other, jar)).status).not.toBe(200);
  });
});
