import type { Logger } from "../logging/logger";
import type { RedisConnection } from "../redis/redis-connection";
import { type Backlog, ChannelRegistry } from "./channel-registry";
import { checkChannel, eventData } from "./channel-name";
import { parseEventId } from "./event-id";
import { EventStreamSink, type SinkSettings, type StreamConnection, type StreamEndReason } from "./event-stream-sink";
import { redisEventLog, type RedisEventLog } from "./redis-event-log";
import { type RedisFanOut, redisFanOut } from "./redis-fan-out";
import { refusalResponse, StreamLimits } from "./stream-limits";

/** What the metrics count of event streams. */
export interface EventObserver {
  published(): void;
  /** Redis could not take an event (down, frozen, refusing): it went to this process's streams alone. */
  publishFailed(): void;
  streamClosed(reason: StreamEndReason | "limit"): void;
}

export interface EventServiceOptions {
  /** EVENT_STREAM_RETAIN: the events of a channel kept for clients that reconnect. */
  retain: number;
  /** EVENT_STREAM_HEARTBEAT_S, in ms. */
  heartbeatMs: number;
  /** EVENT_STREAM_MAX_PER_CLIENT. */
  maxPerClient: number;
  /** EVENT_STREAM_MAX. */
  maxStreams: number;
  /** EVENT_STREAM_BUFFER_MAX_BYTES. */
  maxBufferedBytes: number;
  redis: RedisConnection | undefined;
  logger: Logger;
  observe?: EventObserver;
}

export interface StreamRequest {
  channel: string;
  /** Whose streams count together (the request's clientKey). */
  clientKey: string;
  /** The Last-Event-ID header, as the client sent it. */
  lastEventId: string | undefined;
  /** Cuts the connection if its response has not finished: a client that stopped reading during shutdown. */
  connection: StreamConnection;
}

const NOTHING_MISSED: Backlog = { events: [], missed: false };
const STREAM_HEADERS = { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache", "X-Accel-Buffering": "no" };

/** The retry hint every stream starts with. */
const RETRY_MS = 2_000;
/** On shutdown, streams are ended at once; the connections of those whose end could not be sent are cut after this. */
export const SHUTDOWN_GRACE_MS = 1_000;

/** The events of every channel: publishing, and the streams open on this process. */
export interface EventService {
  /** Sends `data` (a JSON value) to every stream of `channel` on every replica; resolves with its id. */
  publish(channel: string, data: unknown): Promise<{ id: string }>;
  /** A stream of `channel` as a Response, or the refusal when a limit is reached. */
  open(request: StreamRequest): Response;
  readonly openStreams: number;
  /** Shutdown (and a dev rebuild): refuses new streams, ends the open ones with a retry hint and cuts, 1 s later, those whose client is not reading; resolves once all are over. */
  closeStreams(): Promise<void>;
  /** Stops the heartbeat and Redis fan-out. */
  close(): Promise<void>;
}

/** Builds the app's events: within the process, or with `redis` through Redis (a stream per channel, pub/sub fan-out). */
export function createEventService(options: EventServiceOptions): EventService {
  const { redis, logger, observe } = options;
  const registry = new ChannelRegistry(options.retain);
  const limits = new StreamLimits(options.maxPerClient, options.maxStreams);
  const sinks = new Set<EventStreamSink>();
  const log: RedisEventLog | undefined = redis && redisEventLog(redis.client, options.retain);
  const fanOut: RedisFanOut | undefined = redis && log && redisFanOut(redis.client, registry, log, logger);
  let closing = false;
  let publishFailures = 0;

  // One object for every stream: an open stream holds no closure of its own.
  const sinkSettings: SinkSettings = {
    retryMs: RETRY_MS,
    maxBufferedBytes: options.maxBufferedBytes,
    onEnd(sink, reason) {
      registry.unsubscribe(sink.channel, sink);
      sinks.delete(sink);
      limits.release(sink.clientKey);
      observe?.streamClosed(reason);
    },
  };

  const heartbeat = setInterval(() => {
    for (const sink of sinks) sink.heartbeat();
  }, options.heartbeatMs);
  heartbeat.unref();

  const publishLocally = (channel: string, data: string, error: unknown) => {
    // Logged on the first failure and every hundredth after: a Redis outage must not flood the log.
    if (publishFailures++ % 100 === 0) logger.warn({ err: error, channel, failures: publishFailures }, "events: Redis did not take an event; sent to this replica's streams only");
    observe?.publishFailed();
    return { id: registry.publishLocal(channel, data).id };
  };

  const backlog = async (channel: string, lastId: string): Promise<Backlog> => {
    if (!log || !redis?.up) return registry.since(channel, lastId);
    return log.since(channel, lastId).catch(() => registry.since(channel, lastId));
  };

  return {
    async publish(channel, value) {
      checkChannel(channel);
      const data = eventData(channel, value);
      observe?.published();
      if (!log || !redis?.up) return log ? publishLocally(channel, data, new Error("Redis is unavailable")) : { id: registry.publishLocal(channel, data).id };
      try {
        // Every replica's streams get it through the fan-out, this one's too.
        return { id: await log.append(channel, data) };
      } catch (error) {
        return publishLocally(channel, data, error);
      }
    },
    open({ channel, clientKey, lastEventId, connection }) {
      checkChannel(channel);
      const refusal = closing ? "closing" : limits.admit(clientKey);
      if (refusal) {
        observe?.streamClosed("limit");
        return refusalResponse(refusal, { maxPerClient: options.maxPerClient, max: options.maxStreams });
      }
      const resumeFrom = parseEventId(lastEventId) ? lastEventId?.trim() : undefined;
      const sink = new EventStreamSink(sinkSettings, channel, clientKey, resumeFrom, connection);
      sinks.add(sink);
      registry.subscribe(channel, sink);
      if (resumeFrom === undefined) sink.goLive(NOTHING_MISSED);
      else void backlog(channel, resumeFrom).then((found) => sink.goLive(found));
      return new Response(sink.body, { headers: STREAM_HEADERS });
    },
    get openStreams() {
      return limits.total;
    },
    closeStreams() {
      closing = true;
      const ending = [...sinks];
      // Spread over a second: every client of this replica reconnects elsewhere, not all at once.
      for (const sink of ending) sink.shutdown(1_000 + Math.round(Math.random() * 1_000));
      let grace: NodeJS.Timeout | undefined;
      const cut = new Promise<void>((resolve) => {
        grace = setTimeout(() => {
          for (const sink of ending) sink.abandon();
          resolve();
        }, SHUTDOWN_GRACE_MS);
      });
      // Done once every response is over (the dev server then hands over at once), or once the stalled ones are cut.
      return Promise.race([Promise.all(ending.map((sink) => sink.closed())).then(() => clearTimeout(grace)), cut]);
    },
    async close() {
      clearInterval(heartbeat);
      await fanOut?.close();
    },
  };
}
