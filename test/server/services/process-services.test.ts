import { afterEach, describe, expect, it } from "vitest";
import { loadEnv, readAppSettings } from "#src/server/config/env.server";
import { type ProcessServices, startProcessServices } from "#src/server/services/process-services";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { builtAssets, memoryLogger } from "../../support/test-app";
import { fixtureBuild } from "../../support/builds";
import { testRoutes } from "../../support/test-routes";

const SECRET = "process-services-secret-long-enough-0000";
const DSN = "https://key@o1.ingest.sentry.io/1";

class ConfigurationError extends Error {}

/** The server's composition root, with a configuration error thrown instead of ending the process. */
function start(vars: Record<string, string>) {
  const env = loadEnv({ NODE_ENV: "production", SESSION_SECRET: SECRET, ...vars });
  return startProcessServices({
    env,
    logger: memoryLogger().logger,
    routes: testRoutes,
    settings: readAppSettings(testRoutes.settings, {}),
    assets: builtAssets(fixtureBuild()).files,
    onConfigurationError: (variable, message) => {
      throw new ConfigurationError(`${variable}: ${message}`);
    },
  });
}

describe("the server process's services, built in one place (startProcessServices)", () => {
  let services: ProcessServices | undefined;
  let redis: TestRedis | undefined;
  afterEach(async () => {
    await services?.tunnel?.close();
    services?.assetPublisher?.close();
    await services?.events.close();
    await services?.redis?.close();
    await redis?.stop();
    services = undefined;
    redis = undefined;
  });

  it("without a DSN or Redis: the app's services and their metrics, no tunnel, no reporting, no Redis", async () => {
    services = await start({});
    expect(services.tunnel).toBeUndefined();
    expect(services.monitoring).toBeUndefined();
    expect(services.flushErrorReports).toBeUndefined();
    expect(services.redis).toBeUndefined();
    expect(services.assetPublisher).toBeUndefined();
    expect(services.pageCache).toBeDefined();
    // The metrics watch the services they were built with.
    expect(await services.metrics.registry.metrics()).toMatch(/^outpost_event_streams 0$/m);
  });

  it("with a DSN to relay to: the tunnel, its spool off here, reporting still off without SENTRY_DSN", async () => {
    services = await start({ SENTRY_TUNNEL_ALLOWED_DSNS: DSN, SENTRY_TUNNEL_SPOOL_DIR: "off" });
    expect(services.tunnel?.router).toBeDefined();
    expect(services.monitoring).toBeUndefined();
  });

  it("names SENTRY_TUNNEL_SPOOL_DIR when the spool cannot be opened", async () => {
    await expect(start({ SENTRY_TUNNEL_ALLOWED_DSNS: DSN, SENTRY_TUNNEL_SPOOL_DIR: "/dev/null/spool" })).rejects.toThrow(
      /^SENTRY_TUNNEL_SPOOL_DIR: /,
    );
  });

  it.skipIf(!redisAvailable)("with REDIS_URL: connected to Redis, this build's assets published there", async () => {
    redis = await startRedis();
    services = await start({ REDIS_URL: redis.url });
    expect(services.redis).toBeDefined();
    expect(services.sharedAssets).toBeDefined();
    await services.assetPublisher?.firstAttempt;
    expect(await services.metrics.registry.metrics()).toMatch(/^outpost_redis_/m);
  });
});
