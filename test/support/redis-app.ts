import { until } from "./raw-http";
import type { TestApp } from "./test-app";

/** The app's Redis connection is ready: a session page answers rather than 503 for want of it. */
export const redisUp = (app: TestApp) => until(() => app.deps.redis?.up === true, 5_000);

/** The app has noticed its Redis is gone. */
export const redisDown = (app: TestApp) => until(() => app.deps.redis?.up === false, 5_000);
