import { Redis } from "ioredis";
import type { Logger } from "../logger";

export interface RedisConnectionOptions {
  /** REDIS_URL: redis:// or rediss://, with user, password and database in it. */
  url: string;
  /** REDIS_TIMEOUT_MS: the longest one command may take. */
  timeoutMs: number;
  logger: Logger;
}

/** The platform's one Redis connection, shared by the rate limits and the session store. */
export interface RedisConnection {
  readonly client: Redis;
  /** Whether commands can be sent now; while false, users fall back or refuse at once. */
  readonly up: boolean;
  close(): Promise<void>;
}

/** Reconnects every 0.5 s to 2 s, for ever: Redis coming back must be noticed within seconds. */
const reconnectDelay = (attempt: number) => Math.min(500 * attempt, 2_000);

/**
 * Connects in the background: start-up never waits for Redis, and a Redis that is down or slow
 * degrades what uses it rather than hanging a request. No offline queue and a command timeout, so a
 * command fails at once while disconnected and within the timeout while Redis stalls. One warning
 * per outage, never the URL (it may carry the password).
 */
export function createRedisConnection({ url, timeoutMs, logger }: RedisConnectionOptions): RedisConnection {
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(1_000, timeoutMs),
    maxRetriesPerRequest: 0,
    retryStrategy: reconnectDelay,
    // A dropped connection must not wait for TCP keep-alive to be noticed.
    keepAlive: 10_000,
  });
  let up = false;
  let warned = false;
  client.on("ready", () => {
    up = true;
    if (warned) logger.info("redis: connected again; shared limits and sessions are back");
    else logger.info("redis: connected");
    warned = false;
  });
  const down = (error?: Error) => {
    up = false;
    if (warned) return;
    warned = true;
    logger.warn({ code: (error as { code?: string } | undefined)?.code }, "redis: unreachable; limits count per instance and session pages answer 503 until it is back");
  };
  client.on("error", down);
  client.on("close", () => down());
  client.connect().catch(() => {});
  return {
    client,
    get up() {
      return up && client.status === "ready";
    },
    async close() {
      up = false;
      client.removeAllListeners("close");
      await client.quit().catch(() => client.disconnect());
    },
  };
}
