import type { UserFeedback } from "../../shared/routing/request";
import { registerPageCache } from "../routing/revalidation";
import type { SettingsValues } from "../routing/settings";
import { sharedAssetLookup } from "../assets/shared-asset-lookup";
import type { SharedAssets } from "../assets/static-assets";
import { type Env, readAppSettings } from "../config/env.server";
import { createRateLimits, type RateLimits } from "../limits/rate-limits";
import type { Logger } from "../logging/logger";
import type { RequestMonitoring } from "../monitoring/request-monitoring";
import { createEventService, type EventObserver, type EventService } from "../events/event-service";
import { detachedContext } from "../page-cache/detached-context";
import { createPageCache, type PageCacheResult } from "../page-cache/page-cache";
import type { RedisConnection } from "../redis/redis-connection";
import type { PageServices } from "../request/page-handler";
import type { AppRoutes } from "../routing/app-routes";
import { redisStore } from "../sessions/redis-store";
import { createSessions, type SessionServices } from "../sessions/sessions";
import type { SharedState } from "./shared-state";

/**
 * Everything an app uses that outlives a request, built in one place (createAppServices) and
 * handed down explicitly: to the Koa app by createApp, and from there, as `RequestServices`, to
 * every request's context. Nothing here is kept in a module: two apps in one process (tests)
 * each have their own.
 */
export interface AppServices extends PageServices {
  /** The keys that sign cookies (SESSION_SECRET) and the store sessions live in (SESSION_STORE). */
  sessions: SessionServices;
  /** Every named limit: the product's `rateLimit()` and the tunnel's; counted in Redis when it is shared. */
  rateLimits: RateLimits;
  /** With Redis, another live build's hashed assets (a rolling update). */
  sharedAssets: SharedAssets | undefined;
  /** The shared Redis (REDIS_URL), when there is one. */
  redis: RedisConnection | undefined;
  /** Server-sent events: channels, their open streams on this process, fan-out through Redis when shared. */
  events: EventService;
}

export interface ServiceOptions {
  env: Env;
  logger: Logger;
  /** The app's routes: their `settings` are validated here. */
  routes: AppRoutes;
  /** The app's settings, validated (`readAppSettings`); read from the process environment when absent. */
  settings?: SettingsValues;
  /** What replicas share through REDIS_URL (`connectSharedState`); without it everything is this process's own. */
  shared?: SharedState;
  /** Error reporting: user feedback goes out through it, so it is offered exactly when reporting is on. */
  monitoring?: RequestMonitoring;
  /** A page answered 503 because its session's store could not be reached. */
  observeSessionUnavailable?: () => void;
  /** A page cache lookup, by its result. */
  observePageCache?: (result: PageCacheResult) => void;
  /** A revalidation that could not reach Redis within its retries (given up). */
  observePageCacheDropFailure?: () => void;
  /** The build's prerender run renders each page for keeps: no page cache. */
  prerendering?: boolean;
  /** Event streams opened, closed and events published (the metrics). */
  observeEvents?: EventObserver;
}

/** Builds an app's services; with `shared`, Redis backs the sessions (SESSION_STORE=redis), limits, page cache and assets. */
export function createAppServices(options: ServiceOptions): AppServices {
  const { env, logger, monitoring } = options;
  const redis = options.shared?.redis;
  const settings = options.settings ?? readAppSettings(options.routes.settings);
  const sessions = createSessions(env.SESSION_SECRET, sessionStore(options), logger);
  const rateLimits = options.shared?.rateLimits ?? createRateLimits();
  const userFeedback = monitoring ? (feedback: UserFeedback) => monitoring.captureFeedback(feedback) : undefined;
  const pageCache = options.prerendering
    ? undefined
    : createPageCache({
        maxBytes: env.PAGE_CACHE_MAX_MB * 1024 * 1024,
        redis,
        redisMaxBytes: env.PAGE_CACHE_REDIS_MAX_MB * 1024 * 1024,
        observe: options.observePageCache,
        onError: (error) => logger.warn({ err: error }, "page cache: a background refresh or a shared drop failed"),
        onDropGivenUp: (tag, error) => {
          logger.error({ err: error, tag }, "page cache: a revalidation could not reach Redis for a minute and is given up; other replicas serve its pages until they expire");
          options.observePageCacheDropFailure?.();
        },
        detachedContext,
      });
  // revalidateTag() and revalidatePath() take no context: they reach every page cache of the process, as they reach every replica.
  if (pageCache) registerPageCache(pageCache);
  const events = createEventService({
    retain: env.EVENT_STREAM_RETAIN,
    heartbeatMs: env.EVENT_STREAM_HEARTBEAT_S * 1000,
    maxPerClient: env.EVENT_STREAM_MAX_PER_CLIENT,
    maxStreams: env.EVENT_STREAM_MAX,
    maxBufferedBytes: env.EVENT_STREAM_BUFFER_MAX_BYTES,
    redis,
    logger,
    observe: options.observeEvents,
  });
  return {
    route: { rateLimits, userFeedback, settings, events },
    sessions,
    rateLimits,
    pageCache,
    sharedAssets: redis ? sharedAssetLookup(redis) : undefined,
    redis,
    events,
  };
}

/** The Redis session store when SESSION_STORE=redis (the environment's check made sure REDIS_URL is set). */
function sessionStore({ env, shared, logger, observeSessionUnavailable }: ServiceOptions) {
  if (env.SESSION_STORE !== "redis") return undefined;
  if (!shared) throw new Error("SESSION_STORE=redis needs the Redis connection: the app's services were given no shared state (REDIS_URL)");
  return redisStore(shared.redis, { onUnavailable: observeSessionUnavailable, logger });
}

/** With REDIS_URL, starts loading the Redis half (the client, the limiter library), so it loads beside the process's other modules. */
export function loadSharedState(env: Pick<Env, "REDIS_URL">): Promise<typeof import("./shared-state")> | undefined {
  return env.REDIS_URL ? import("./shared-state") : undefined;
}
