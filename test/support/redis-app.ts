import { until } from "./raw-http";
import { redisAvailable, startRedis, type TestRedis } from "./redis-server";
import type { TestApp } from "./test-app";

/** The app's Redis connection is ready: a session page answers rather than 503 for want of it. */
export const redisUp = (app: TestApp) => until(() => app.deps.redis?.up === true, 5_000);

/** The app has noticed its Redis is gone. */
export const redisDown = (app: TestApp) => until(() => app.deps.redis?.up === false, 5_000);

/** The session stores a test file runs on, each by its environment: Redis started on first use (when installed), stopped by `stop`. */
export function sessionStores() {
  let redis: TestRedis | undefined;
  const stores: { store: "cookie" | "redis"; env: () => Promise<Record<string, string>> }[] = [{ store: "cookie", env: async () => ({}) }];
  if (redisAvailable) {
    stores.push({
      store: "redis",
      env: async () => {
        redis ??= await startRedis();
        return { SESSION_STORE: "redis", REDIS_URL: redis.url };
      },
    });
  }
  return { stores, stop: async () => redis?.stop() };
}
