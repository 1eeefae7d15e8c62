import type { Redis } from "ioredis";
import type { Backlog } from "./channel-registry";
import { compareEventIds } from "./event-id";

/** The one pub/sub channel every replica listens on; a message names its event channel. */
export const FAN_OUT_CHANNEL = "outpost:events";
/** A channel nobody published to for a day is dropped from Redis, its trimming mark with it. */
const KEPT_FOR_MS = 24 * 3_600_000;

// The stream and its mark share a hash tag: one slot, so a cluster runs the script too.
const streamKey = (channel: string) => `outpost:events:{${channel}}`;
const trimmedKey = (channel: string) => `outpost:events:{${channel}}:trimmed`;

/**
 * Appends to the channel's stream (its id made by Redis, so every replica orders events alike),
 * keeps exactly ARGV[1] events, notes the newest id trimmed, and publishes the event, all in one
 * step: pub/sub then delivers events in the order of their ids.
 */
const APPEND = `
local stream, trimmed = KEYS[1], KEYS[2]
local retain, data, fanOut, channel, ttl = tonumber(ARGV[1]), ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5])
local length = redis.call('XLEN', stream)
if length >= retain then
  local gone = redis.call('XRANGE', stream, '-', '+', 'COUNT', length - retain + 1)
  redis.call('SET', trimmed, gone[#gone][1], 'PX', ttl)
end
local id = redis.call('XADD', stream, 'MAXLEN', retain, '*', 'd', data)
redis.call('PEXPIRE', stream, ttl)
redis.call('PEXPIRE', trimmed, ttl)
redis.call('PUBLISH', fanOut, channel .. '\\n' .. id .. '\\n' .. data)
return id
`;

/** The events after ARGV[1] and the trimming mark, read together. */
const SINCE = `
return {redis.call('GET', KEYS[2]) or '', redis.call('XRANGE', KEYS[1], '(' .. ARGV[1], '+', 'COUNT', ARGV[2])}
`;

interface EventScripts {
  outpostEventAppend(stream: string, trimmed: string, retain: number, data: string, fanOut: string, channel: string, ttlMs: number): Promise<string>;
  outpostEventsSince(stream: string, trimmed: string, after: string, count: number): Promise<[string, [string, string[]][]]>;
}

export interface RedisEventLog {
  /** Keeps and publishes one event; resolves with its id (rejects as the command does: REDIS_TIMEOUT_MS at most). */
  append(channel: string, data: string): Promise<string>;
  /** What a client that saw `lastId` missed, from Redis: whichever replica it reconnects to. */
  since(channel: string, lastId: string): Promise<Backlog>;
}

/** The channels' last EVENT_STREAM_RETAIN events in Redis Streams, on the shared connection. */
export function redisEventLog(client: Redis, retain: number): RedisEventLog {
  client.defineCommand("outpostEventAppend", { numberOfKeys: 2, lua: APPEND });
  client.defineCommand("outpostEventsSince", { numberOfKeys: 2, lua: SINCE });
  const scripts = client as unknown as EventScripts;
  return {
    append: (channel, data) =>
      scripts.outpostEventAppend(streamKey(channel), trimmedKey(channel), retain, data, FAN_OUT_CHANNEL, channel, KEPT_FOR_MS),
    async since(channel, lastId) {
      const [trimmed, entries] = await scripts.outpostEventsSince(streamKey(channel), trimmedKey(channel), lastId, retain);
      const events = entries.map(([id, fields]) => ({ id, data: fields[1] ?? "null" }));
      return { events, missed: trimmed !== "" && compareEventIds(lastId, trimmed) < 0 };
    },
  };
}
