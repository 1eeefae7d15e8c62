import { readFile } from "node:fs/promises";
import type { Logger } from "../logging/logger";
import type { RedisConnection } from "../redis/redis-connection";
import { contentHashOf } from "./asset-headers";
import type { StaticFile } from "./manifest";
import { sharedAssetKey } from "./shared-asset-key";

export interface SharedAssetsPublishOptions {
  redis: RedisConnection;
  /** This build's servable files (the manifest's); only the content-hashed scripts and stylesheets are published. */
  files: Map<string, StaticFile>;
  /** ASSET_RETENTION_HOURS, in ms: how long an asset outlives the last replica of its build. */
  retentionMs: number;
  /** ASSET_PUBLISH_MAX_MB, in bytes: a build whose assets total more is not published. */
  maxBytes: number;
  logger: Logger;
}

export interface PublishOutcome {
  /** Assets written now (absent from Redis before). */
  published: number;
  /** Assets already there (another replica of this build, or an earlier run), whose retention was renewed. */
  refreshed: number;
}

export interface SharedAssetsPublisher {
  /** Publishes what is missing and renews the rest; runs on its own at each (re)connection and periodically. */
  publish(): Promise<PublishOutcome | undefined>;
  /** Settles once the first publishing has ended, well or not, or the connection failed before it could start. */
  readonly firstAttempt: Promise<void>;
  close(): void;
}

/** A failed publishing is tried again after these, then every last one, until it lands: a frozen or overloaded Redis keeps its connection, so no reconnection would ever trigger it. */
const RETRY_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

/** Renewed well within the retention, and at least hourly, so assets never lapse while a replica of their build runs. */
const refreshIntervalMs = (retentionMs: number) => Math.max(1_000, Math.min(retentionMs / 3, 3_600_000));

/**
 * Puts this build's hashed assets in Redis, one key per URL path, so replicas of another build
 * can serve them (shared-asset-lookup.ts). Idempotent: one PEXPIRE per asset renews what a replica
 * of this build (or an earlier run) wrote, and only the assets missing are read and written with
 * SET NX, one file at a time. Start-up never waits on it; readiness waits for `firstAttempt`, bounded
 * (src/server/index.ts), so a new replica takes traffic once the old build's replicas can serve its assets.
 */
export function publishSharedAssets({ redis, files, retentionMs, maxBytes, logger }: SharedAssetsPublishOptions): SharedAssetsPublisher {
  const assets = [...files].filter(([urlPath]) => contentHashOf(urlPath) !== undefined);
  const totalBytes = assets.reduce((sum, [, file]) => sum + file.size, 0);
  if (totalBytes > maxBytes) {
    logger.error(
      { totalBytes, maxBytes },
      `shared assets: this build's scripts and stylesheets total ${megabytes(totalBytes)} MB, over the ASSET_PUBLISH_MAX_MB cap of ${megabytes(maxBytes)} MB; not published, so other builds' replicas cannot serve them`,
    );
    return { publish: async () => undefined, firstAttempt: Promise.resolve(), close() {} };
  }

  const { client } = redis;
  const publishOnce = async (): Promise<PublishOutcome> => {
    const renewed = await Promise.all(assets.map(([urlPath]) => client.pexpire(sharedAssetKey(urlPath), retentionMs)));
    let published = 0;
    for (const [index, [urlPath, file]] of assets.entries()) {
      if (renewed[index] === 1) continue;
      const bytes = await readFile(file.absolutePath);
      if ((await client.set(sharedAssetKey(urlPath), bytes, "PX", retentionMs, "NX")) === "OK") published++;
    }
    return { published, refreshed: assets.length - published };
  };

  let running: Promise<PublishOutcome | undefined> | undefined;
  let closed = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  let endFirstAttempt = () => {};
  const firstAttempt = new Promise<void>((resolve) => {
    endFirstAttempt = resolve;
  });
  // A Redis that cannot be reached never gets to the first attempt: nothing to wait for.
  client.once("error", endFirstAttempt);
  const publish = () => {
    running ??= publishOnce()
      .then((outcome) => {
        failures = 0;
        // A renewal alone (another replica of this build, or the periodic one) is routine.
        logger[outcome.published > 0 ? "info" : "debug"]({ ...outcome, totalBytes, retentionMs }, "shared assets: in Redis for the other builds' replicas");
        return outcome;
      })
      .catch((error: unknown) => {
        // Cut short by shutdown closing the connection: nothing to retry.
        if (closed) return undefined;
        const delayMs = RETRY_DELAYS_MS[Math.min(failures++, RETRY_DELAYS_MS.length - 1)] as number;
        logger.warn(
          { code: (error as { code?: string }).code, reason: (error as Error).message, retryInMs: delayMs },
          "shared assets: publishing failed; tried again shortly, and when Redis is back",
        );
        clearTimeout(retry);
        retry = setTimeout(() => void publish(), delayMs);
        retry.unref();
        return undefined;
      })
      .finally(() => {
        running = undefined;
        endFirstAttempt();
      });
    return running;
  };
  const onReady = () => void publish();
  client.on("ready", onReady);
  const timer = setInterval(() => {
    if (redis.up) void publish();
  }, refreshIntervalMs(retentionMs));
  timer.unref();
  if (redis.up) void publish();
  return {
    publish,
    firstAttempt,
    close() {
      closed = true;
      clearInterval(timer);
      clearTimeout(retry);
      client.off("ready", onReady);
      client.off("error", endFirstAttempt);
      endFirstAttempt();
    },
  };
}

const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
