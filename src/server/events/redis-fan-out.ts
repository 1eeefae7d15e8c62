import type { Redis } from "ioredis";
import type { Logger } from "../logging/logger";
import type { ChannelRegistry } from "./channel-registry";
import { FAN_OUT_CHANNEL, type RedisEventLog } from "./redis-event-log";

export interface RedisFanOut {
  close(): Promise<void>;
}

/**
 * Every replica's events reach this process's streams: a connection of its own (a subscribed
 * connection can run nothing else) listens on the fan-out channel and dispatches each message.
 * Each time it subscribes (after a lost connection too) it reads what its channels missed meanwhile
 * from their streams; the registry drops ids it has already dispatched.
 */
export function redisFanOut(shared: Redis, registry: ChannelRegistry, log: RedisEventLog, logger: Logger): RedisFanOut {
  // The shared connection's options (no offline queue, the command timeout, reconnecting for ever).
  const subscriber = shared.duplicate({ lazyConnect: true, autoResubscribe: false, connectionName: "outpost-events" });
  subscriber.on("message", (channel: string, message: string) => {
    if (channel !== FAN_OUT_CHANNEL) return;
    const first = message.indexOf("\n");
    const second = message.indexOf("\n", first + 1);
    if (first < 0 || second < 0) return;
    registry.dispatch(message.slice(0, first), { id: message.slice(first + 1, second), data: message.slice(second + 1) });
  });
  subscriber.on("ready", () => {
    subscriber.subscribe(FAN_OUT_CHANNEL).then(
      // Events published while it was not subscribed (a lost connection, or streams opened before the first subscription) are in their streams.
      () => void catchUp(),
      (error: unknown) => {
        logger.warn({ err: error }, "events: could not subscribe to other replicas' events; retrying on the next reconnect");
        subscriber.disconnect(true);
      },
    );
  });
  // Outages are logged once by the shared connection; this one only keeps trying.
  subscriber.on("error", () => {});
  const catchUp = async () => {
    for (const [channel, lastId] of registry.listened()) {
      if (lastId === undefined) continue;
      try {
        const { events } = await log.since(channel, lastId);
        for (const event of events) registry.dispatch(channel, event);
      } catch {
        return;
      }
    }
  };
  subscriber.connect().catch(() => {});
  return {
    async close() {
      subscriber.removeAllListeners("ready");
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}
