import type { Redis } from "ioredis";

// The total a session takes: the bytes of its hash's field names and values, summed in place,
// so an oversized hash is measured without being sent anywhere.
const SIZE_OF = `
local function sizeOf(fields)
  local size = 0
  for _, part in ipairs(fields) do size = size + #part end
  return size
end
`;

/** A field every session's hash keeps, so taking out its last flash or value never deletes the session. */
export const MARKER = "_";

/**
 * Reads sessions, one per key (the reads of one event-loop turn: see batched-reads.ts), each
 * alone as if by a script of its own: {0} none; {-1, size} over the cap, {-2} not a hash, {-4} a
 * field of no known kind or a value not JSON (all three dropped, so each is noticed once); {-3,
 * error} Redis refused this key's read (out of memory taking its flashes: the other keys' reads
 * stand); else {1, json, lease}, json the session as one text, `[values]` or `[values, flashed]`
 * (objects by key, prefixes off), so the server decodes one string and parses it once
 * (docs/decisions/0107-session-reads-batched-per-turn.md). Each value is checked to be JSON before
 * it is pasted in, so no stored text can add keys of its own. The flashed fields
 * (prefix ARGV[2]) are taken at once, so two concurrent readers never both get one, but under a
 * lease: each moves to a taken field (prefix ARGV[3]) holding "[<deadline ms>,<value>]", which
 * the reader's write ends. A lease past its deadline (ARGV[4] ms after the read: a read whose
 * answer never arrived, a page that failed before its write) is put back as a flash first, so no
 * flash is lost to a reader that never showed it.
 */
const READ = `${SIZE_OF}
local cap, flash, taken, leaseMs, valuePrefix, marker = tonumber(ARGV[1]), ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5], ARGV[6]
local function isJson(text)
  local ok = pcall(cjson.decode, text)
  return ok
end
-- The session as one JSON text, or nil when a field is of no known kind or a value not JSON.
local function asJson(fields)
  local values, flashed = {}, {}
  for i = 1, #fields, 2 do
    local name, held = fields[i], fields[i + 1]
    if name ~= marker and string.sub(name, 1, #taken) ~= taken then
      local into, prefix = values, valuePrefix
      if string.sub(name, 1, #flash) == flash then into, prefix = flashed, flash
      elseif string.sub(name, 1, #valuePrefix) ~= valuePrefix then return nil end
      if not isJson(held) then return nil end
      into[#into + 1] = cjson.encode(string.sub(name, #prefix + 1)) .. ':' .. held
    end
  end
  local json = '[{' .. table.concat(values, ',') .. '}'
  if #flashed > 0 then json = json .. ',{' .. table.concat(flashed, ',') .. '}' end
  return json .. ']'
end
local function readOne(key)
  local kind = redis.call('TYPE', key).ok
  if kind == 'none' then return {0} end
  if kind ~= 'hash' then redis.call('DEL', key) return {-2} end
  if redis.call('HLEN', key) > cap then redis.call('DEL', key) return {-1, cap + 1} end
  local fields = redis.call('HGETALL', key)
  local size = sizeOf(fields)
  if size > cap then redis.call('DEL', key) return {-1, size} end
  local time = redis.call('TIME')
  local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  local lapsed = false
  for i = 1, #fields, 2 do
    local name, held = fields[i], fields[i + 1]
    if string.sub(name, 1, #taken) == taken then
      local deadline, value = string.match(held, '^%[(%d+),(.*)%]$')
      if not deadline or tonumber(deadline) <= now then
        if deadline then redis.call('HSETNX', key, flash .. string.sub(name, #taken + 1), value) end
        redis.call('HDEL', key, name)
        lapsed = true
      end
    end
  end
  if lapsed then fields = redis.call('HGETALL', key) end
  local json = asJson(fields)
  if not json then redis.call('DEL', key) return {-4} end
  local lease = string.format('%.0f', now + leaseMs)
  for i = 1, #fields, 2 do
    local name = fields[i]
    if string.sub(name, 1, #flash) == flash then
      redis.call('HSET', key, taken .. string.sub(name, #flash + 1), '[' .. lease .. ',' .. fields[i + 1] .. ']')
      redis.call('HDEL', key, name)
    end
  end
  return {1, json, lease}
end
local replies = {}
for i, key in ipairs(KEYS) do
  local ok, reply = pcall(readOne, key)
  if not ok then
    if type(reply) == 'table' then reply = reply.err end
    reply = {-3, tostring(reply)}
  end
  replies[i] = reply
end
return replies
`;

/**
 * Writes a session's changes as (op, field, value) triples in ARGV[4..]: s sets, d deletes, n
 * sets unless present (a flash put back), i adds a number, x ends a read's lease on a taken
 * flash (deletes the field while it still holds that lease, value = the lease). Mode update (KEYS[1] must still be
 * a session) and rename (KEYS[2] must, and becomes KEYS[1]) are how an ended session stays
 * ended; create writes a new id, replace first deletes KEYS[2]. Nothing is written when the
 * result would be over the cap. {1} written; {0} the session was gone; {-1, size} too large.
 */
const WRITE = `${SIZE_OF}
local key, from, mode, ttl, cap = KEYS[1], KEYS[2], ARGV[1], ARGV[2], tonumber(ARGV[3])
local source = key
if mode == 'rename' then source = from end
if mode == 'update' or mode == 'rename' then
  if redis.call('TYPE', source).ok ~= 'hash' then return {0} end
elseif mode == 'replace' then
  redis.call('DEL', from)
end
local size = sizeOf(redis.call('HGETALL', source))
local writes = {}
for i = 4, #ARGV, 3 do
  local op, name, value = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  local old = redis.call('HGET', source, name)
  local oldSize = 0
  if old then oldSize = #name + #old end
  if op == 'i' then
    local sum = (tonumber(old or '0') or 0) + tonumber(value)
    if sum ~= sum or sum == math.huge or sum == -math.huge then sum = 0 end
    value = string.format('%.17g', sum)
    op = 's'
  elseif op == 'x' then
    if old and string.sub(old, 1, #value + 2) == '[' .. value .. ',' then op = 'd' else op = '-' end
  end
  if op == 's' then size = size - oldSize + #name + #value
  elseif op == 'd' then size = size - oldSize
  elseif op == 'n' and not old then size = size + #name + #value
  end
  writes[#writes + 1] = {op, name, value}
end
if size > cap then return {-1, size} end
if mode == 'rename' and from ~= key then redis.call('RENAME', from, key) end
for _, write in ipairs(writes) do
  if write[1] == 's' then redis.call('HSET', key, write[2], write[3])
  elseif write[1] == 'd' then redis.call('HDEL', key, write[2])
  elseif write[1] == 'n' then redis.call('HSETNX', key, write[2], write[3]) end
end
redis.call('HSET', key, '${MARKER}', '1')
redis.call('PEXPIRE', key, ttl)
return {1}
`;

export type WriteMode = "create" | "update" | "rename" | "replace";
export type WriteOp = readonly ["s" | "d" | "n" | "i" | "x", string, string];
export type ReadReply = [0] | [-1, number] | [-2] | [-3, string] | [-4] | [1, string, string];
export type WriteReply = [1] | [0] | [-1, number];

interface SessionScripts {
  outpostSessionRead(keyCount: number, ...keysThenArgs: (string | number)[]): Promise<ReadReply[]>;
  outpostSessionWrite(key: string, from: string, mode: WriteMode, ttlMs: number, cap: number, ...ops: string[]): Promise<WriteReply>;
}

/** The session store's two scripts on the shared connection (ioredis sends each by its hash, the script itself once). */
export function sessionScripts(client: Redis) {
  // Its number of keys is the batch's, given with each call.
  client.defineCommand("outpostSessionRead", { lua: READ });
  client.defineCommand("outpostSessionWrite", { numberOfKeys: 2, lua: WRITE });
  const scripts = client as unknown as SessionScripts;
  return {
    /** One reply per key, in their order. */
    read: (keys: readonly string[], cap: number, prefixes: { value: string; flash: string; taken: string }, leaseMs: number) =>
      scripts.outpostSessionRead(keys.length, ...keys, cap, prefixes.flash, prefixes.taken, leaseMs, prefixes.value, MARKER),
    write: (key: string, from: string, mode: WriteMode, ttlMs: number, cap: number, ops: readonly WriteOp[]) =>
      scripts.outpostSessionWrite(key, from, mode, ttlMs, cap, ...ops.flat()),
  };
}
