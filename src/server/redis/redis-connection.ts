import type { Socket } from "node:net";
import { Redis } from "ioredis";
import type { Logger } from "../logging/logger";
import { databaseRefusedMessage, describeRedisFailure, isDatabaseRefused } from "./redis-failure";

export interface RedisConnectionOptions {
  /** REDIS_URL: redis:// or rediss://, with user, password and database in it. */
  url: string;
  /** REDIS_TIMEOUT_MS: the longest one command may take. */
  timeoutMs: number;
  logger: Logger;
  /** How often Redis is asked to store a small health key; 2 s unless a test wants it sooner. */
  probeIntervalMs?: number;
  /** Called once if the server refuses REDIS_URL's database: the connection gives up, as it is configuration, not an outage. */
  onConfigurationError?: (message: string) => void;
}

/** The platform's one Redis connection, shared by the rate limits and the session store. */
export interface RedisConnection {
  readonly client: Redis;
  /** Whether Redis answered its last probe (a miss is asked again at once) and is still connected; while false, users fall back or refuse at once. */
  readonly up: boolean;
  /**
   * Holds the commands sent for the rest of this turn of the event loop for one socket write: each
   * is still sent and timed on its own, but concurrent requests' commands share the write's system call.
   */
  coalesceWrites(): void;
  close(): Promise<void>;
}

/** Reconnects every 0.5 s to 2 s, for ever: Redis coming back must be noticed within seconds. */
const reconnectDelay = (attempt: number) => Math.min(500 * attempt, 2_000);
const PROBE_INTERVAL_MS = 2_000;
/** A write, not a PING: a Redis out of memory still answers PING but refuses every write. */
const HEALTH_KEY = "outpost:health";

/**
 * Connects in the background: start-up never waits for Redis, and a Redis that is down or slow
 * degrades what uses it rather than hanging a request. No offline queue and a command timeout, so a
 * command fails at once while disconnected and within the timeout while Redis stalls. A connection
 * can be open to a Redis that answers nothing (frozen, out of memory), so `up` follows a periodic
 * probe write. One warning per outage saying why, never the URL (it may carry the password).
 */
export function createRedisConnection(options: RedisConnectionOptions): RedisConnection {
  const { url, timeoutMs, logger, probeIntervalMs = PROBE_INTERVAL_MS, onConfigurationError } = options;
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(1_000, timeoutMs),
    maxRetriesPerRequest: 0,
    // Each command is written at once and timed from its call: auto-pipelining would queue it behind a stalled batch.
    enableAutoPipelining: false,
    retryStrategy: reconnectDelay,
    // A dropped connection must not wait for TCP keep-alive to be noticed.
    keepAlive: 10_000,
  });
  let answering = false;
  let connectedBefore = false;
  let outage: string | undefined;
  let givenUp = false;
  let probing = false;

  const failed = (reason: string) => {
    answering = false;
    if (outage !== undefined || givenUp) return;
    outage = reason;
    logger.warn({ reason }, `redis: unavailable (${reason}); limits count per instance and session pages answer 503 until it is back`);
  };
  const answered = () => {
    if (givenUp) return;
    answering = true;
    if (outage === undefined && connectedBefore) return;
    logger.info(connectedBefore ? "redis: connected again; shared limits and sessions are back" : "redis: connected");
    outage = undefined;
    connectedBefore = true;
  };
  const probeOnce = () => client.set(HEALTH_KEY, "1", "PX", probeIntervalMs * 5);
  const probe = async () => {
    if (probing || givenUp || client.status !== "ready") return;
    probing = true;
    try {
      await probeOnce().catch((error: unknown) => {
        // One miss while up is no outage yet: a stalled event loop here (a GC pause, a deploy's CPU
        // spike) times out a healthy Redis too, and down means foreign assets 404 and limits split.
        // Asked again at once; a second miss is an outage.
        if (!answering || client.status !== "ready") throw error;
        return probeOnce();
      });
      answered();
    } catch (error) {
      failed(describeRedisFailure(error, timeoutMs));
    } finally {
      probing = false;
    }
  };
  const refuseDatabase = (error: unknown) => {
    // ioredis goes on with database 0 after a refused SELECT: disconnect before any command runs there.
    givenUp = true;
    answering = false;
    client.disconnect();
    const message = databaseRefusedMessage(error, client.options.db ?? 0);
    logger.error({ reason: "database refused" }, `redis: REDIS_URL ${message}`);
    onConfigurationError?.(message);
  };

  let corked: Socket | undefined;
  const uncork = () => {
    corked?.uncork();
    corked = undefined;
  };
  const coalesceWrites = () => {
    // Not auto-pipelining: nothing waits for an earlier batch's answers, so a stalled Redis still costs each command only its own timeout.
    if (corked !== undefined || client.status !== "ready") return;
    corked = client.stream;
    corked.cork();
    setImmediate(uncork);
  };

  client.on("ready", () => void probe());
  client.on("error", (error: unknown) => (isDatabaseRefused(error) ? refuseDatabase(error) : failed(describeRedisFailure(error, timeoutMs))));
  client.on("close", () => failed("connection lost"));
  const timer = setInterval(() => void probe(), probeIntervalMs);
  timer.unref();
  client.connect().catch(() => {});
  return {
    client,
    get up() {
      return answering && client.status === "ready";
    },
    coalesceWrites,
    async close() {
      clearInterval(timer);
      givenUp = true;
      answering = false;
      client.removeAllListeners("close");
      await client.quit().catch(() => client.disconnect());
    },
  };
}
