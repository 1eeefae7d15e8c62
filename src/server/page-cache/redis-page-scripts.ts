import type { Redis } from "ioredis";

/**
 * The shared page store's data in Redis, each script one atomic step (keys it derives itself: one
 * Redis, not a cluster). A cache key begins with its build id and `|` (cache-plan.ts):
 * - `outpost:page:<key>`: the entry's JSON, expiring when it is no longer servable;
 * - `outpost:page-meta:<build>`: per key, "<bytes counted> <readAt of its render> <tag> <tag>…";
 * - `outpost:page-lru:<build>`: keys by last use; `outpost:page-bytes:<build>`: bytes counted;
 * - `outpost:page-tagged:<tag>`: keys by expiry (ms, Redis' clock), only live ones;
 * - `outpost:page-dropped:<tag>`: Redis' clock (µs) at the tag's last drop.
 * Every time is Redis' own (TIME), so replicas' clocks never matter.
 */
const COMMON = `
local ENTRY, TAGGED, DROPPED = 'outpost:page:', 'outpost:page-tagged:', 'outpost:page-dropped:'
local function clock()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local function scoped(prefix, key) return prefix .. string.match(key, '^[^|]*') end
local function fields(meta)
  local found = {}
  for field in string.gmatch(meta, '%S+') do found[#found + 1] = field end
  return found
end
-- Removes an entry and all its bookkeeping (bytes, last use, tag indexes).
local function forget(key)
  local metaKey, bytesKey = scoped('outpost:page-meta:', key), scoped('outpost:page-bytes:', key)
  local meta = redis.call('HGET', metaKey, key)
  redis.call('DEL', ENTRY .. key)
  redis.call('ZREM', scoped('outpost:page-lru:', key), key)
  if not meta then return end
  local parts = fields(meta)
  redis.call('HDEL', metaKey, key)
  if redis.call('EXISTS', bytesKey) == 1 and redis.call('DECRBY', bytesKey, parts[1]) < 0 then redis.call('SET', bytesKey, 0, 'KEEPTTL') end
  for i = 3, #parts do redis.call('ZREM', TAGGED .. parts[i], key) end
end
-- Whether one of the tags was dropped at or after \`since\` (a render that began before must not count).
local function droppedSince(tags, from, since)
  for i = from, #tags do
    local dropped = redis.call('GET', DROPPED .. tags[i])
    if dropped and tonumber(dropped) >= since then return true end
  end
  return false
end
`;

/** ARGV: key. Replies [entry JSON or nil, now µs]; an expired or dropped entry is forgotten, a found one marked used. */
const READ = `${COMMON}
local key = ARGV[1]
local now = clock()
local meta = redis.call('HGET', scoped('outpost:page-meta:', key), key)
if not meta then return {false, now} end
local parts = fields(meta)
local text = redis.call('GET', ENTRY .. key)
if not text or droppedSince(parts, 3, tonumber(parts[2])) then
  forget(key)
  return {false, now}
end
redis.call('ZADD', scoped('outpost:page-lru:', key), 'XX', now, key)
return {text, now}
`;

/**
 * ARGV: key, JSON, ttl ms, readAt µs (the read before the render), build budget bytes, window µs,
 * tags…. Refuses a render older than the window or one a drop of its tags came after; evicts the
 * least recently used entries of the build (and their tag index members) to stay in its budget.
 */
const WRITE = `${COMMON}
local key, json = ARGV[1], ARGV[2]
local ttl, since, budget, window = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local tags = {}
for i = 7, #ARGV do tags[#tags + 1] = ARGV[i] end
local now = clock()
if now - since > window then return 'late' end
if droppedSince(tags, 1, since) then return 'dropped' end
forget(key)
redis.call('SET', ENTRY .. key, json, 'PX', ttl)
local meta = ARGV[4] .. ' ' .. table.concat(tags, ' ')
-- The entry as Redis holds it, then its meta field, last-use member and tag index members, each with Redis' own overhead.
local bytes = redis.call('MEMORY', 'USAGE', ENTRY .. key, 'SAMPLES', '0') + #meta + (#key + 80) * (2 + #tags) + 16
meta = bytes .. ' ' .. meta
if bytes > budget then
  redis.call('DEL', ENTRY .. key)
  return 'large'
end
local nowMs = math.floor(now / 1000)
for _, tag in ipairs(tags) do
  local expired = redis.call('ZRANGEBYSCORE', TAGGED .. tag, '-inf', nowMs, 'LIMIT', 0, 100)
  for _, member in ipairs(expired) do
    forget(member)
    redis.call('ZREM', TAGGED .. tag, member)
  end
end
local metaKey, lruKey, bytesKey = scoped('outpost:page-meta:', key), scoped('outpost:page-lru:', key), scoped('outpost:page-bytes:', key)
local total = tonumber(redis.call('GET', bytesKey) or '0')
local evicted = 0
while total + bytes > budget do
  if evicted >= 1000 then
    redis.call('DEL', ENTRY .. key)
    return 'full'
  end
  local oldest = redis.call('ZPOPMIN', lruKey)
  if #oldest == 0 then
    redis.call('SET', bytesKey, 0)
    total = 0
  else
    forget(oldest[1])
    evicted = evicted + 1
    total = tonumber(redis.call('GET', bytesKey) or '0')
  end
end
redis.call('HSET', metaKey, key, meta)
redis.call('INCRBY', bytesKey, bytes)
redis.call('ZADD', lruKey, now, key)
-- The build's bookkeeping and each index live as long as their longest-lived entry.
for _, name in ipairs({metaKey, lruKey, bytesKey}) do
  redis.call('PEXPIRE', name, ttl, 'NX')
  redis.call('PEXPIRE', name, ttl, 'GT')
end
for _, tag in ipairs(tags) do
  redis.call('ZADD', TAGGED .. tag, nowMs + ttl, key)
  redis.call('PEXPIRE', TAGGED .. tag, ttl, 'NX')
  redis.call('PEXPIRE', TAGGED .. tag, ttl, 'GT')
end
return 'stored'
`;

/**
 * ARGV: tag, batch size, window ms, first ("1" records the drop). The record outlives every entry
 * the tag had (and every render in the window), so what is left to delete is refused meanwhile;
 * each call deletes at most one batch and replies how many remain.
 */
const DROP = `${COMMON}
local tag = ARGV[1]
local index = TAGGED .. tag
if ARGV[4] == '1' then
  local keep = math.max(redis.call('PTTL', index), tonumber(ARGV[3]))
  redis.call('SET', DROPPED .. tag, string.format('%.0f', clock()), 'PX', keep)
end
for _, member in ipairs(redis.call('ZRANGE', index, 0, tonumber(ARGV[2]) - 1)) do
  forget(member)
  redis.call('ZREM', index, member)
end
return redis.call('ZCARD', index)
`;

export type WriteReply = "stored" | "late" | "dropped" | "large" | "full";

interface PageScripts {
  outpostPageRead(key: string): Promise<[string | null, number]>;
  outpostPageWrite(key: string, json: string, ttlMs: number, readAt: number, budget: number, windowUs: number, ...tags: string[]): Promise<WriteReply>;
  outpostPageDrop(tag: string, batch: number, windowMs: number, first: "0" | "1"): Promise<number>;
}

/** The page store's scripts on the shared connection (ioredis sends each by its hash, the script itself once). */
export function pageScripts(client: Redis): PageScripts {
  client.defineCommand("outpostPageRead", { numberOfKeys: 0, lua: READ });
  client.defineCommand("outpostPageWrite", { numberOfKeys: 0, lua: WRITE });
  client.defineCommand("outpostPageDrop", { numberOfKeys: 0, lua: DROP });
  return client as unknown as PageScripts;
}
