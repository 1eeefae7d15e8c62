import type { RequestContext } from "../../shared/routing/request";
import type { EventService } from "./event-service";
import type { StreamConnection } from "./event-stream-sink";

declare module "../../shared/routing/request" {
  interface RouteServices {
    /** Server-sent events: publishing to a channel, and the streams open on this replica. */
    events: Pick<EventService, "publish" | "open">;
  }
}

const NO_CONNECTION: StreamConnection = { writableFinished: true, destroyed: true, once: () => undefined, destroy() {} };

export interface EventStreamOptions {
  /** Whose streams count together toward EVENT_STREAM_MAX_PER_CLIENT; the visitor's `clientKey` by default. */
  key?: string;
}

/**
 * Answers a resource route's GET with the event stream of `channel` (`text/event-stream`): what
 * was published to it on any replica from now on, and first what the client missed when it
 * reconnects with Last-Event-ID. The route's middleware has run, so a route can refuse a visitor
 * first, as for any loader. Answers 429 or 503 with Retry-After past the stream limits.
 */
export function eventStream(context: RequestContext, channel: string, options: EventStreamOptions = {}): Response {
  return context.services.events.open({
    channel,
    clientKey: options.key ?? context.clientKey,
    lastEventId: context.header("last-event-id") || undefined,
    // The platform's request context hands its response (PageRequestContext); a test's stand-in need not.
    connection: (context as { rawResponse?(): StreamConnection }).rawResponse?.() ?? NO_CONNECTION,
  });
}

/**
 * Sends `data` (any JSON value, at most 64 KiB as JSON) to every open stream of `channel`, on
 * every replica (through Redis with REDIS_URL), and keeps it for clients that reconnect. Never
 * waits past REDIS_TIMEOUT_MS: with Redis unreachable the event goes to this replica's streams.
 */
export function publish(context: Pick<RequestContext, "services">, channel: string, data: unknown): Promise<{ id: string }> {
  return context.services.events.publish(channel, data);
}
