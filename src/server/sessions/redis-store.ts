import { randomBytes } from "node:crypto";
import type { Context } from "koa";
import type { Logger } from "../logging/logger";
import type { RedisConnection } from "../redis/redis-connection";
import { batchedReads } from "./batched-reads";
import { type ReadReply, sessionScripts, type WriteMode, type WriteOp } from "./redis-scripts";
import { SESSION_COOKIE, SESSION_COOKIE_OPTIONS, SESSION_MAX_AGE_MS, signedSessionCookie } from "./session-cookie";
import { FLASH_KEY, type LoadedSession, type SessionChanges, type SessionStore, SessionStoreUnavailableError, type SessionValues } from "./session-store";
import { MAX_VALUE_NESTING, nestsTooDeep } from "./value-nesting";

/** The most a session may take in Redis (its fields' names and values): far above a cookie's 4 KB, yet a bounded read per page. */
export const MAX_SESSION_BYTES = 64 * 1024;
const KEY_PREFIX = "outpost:session:";
/** A value's field in the session's hash; a flashed value's, so the read can take those out alone. */
const VALUE = "v:";
const FLASHED = "f:";
/**
 * A flash a read took, under that read's lease ("[<deadline>,<value>]"): see redis-scripts.ts. A
 * value field of a key no page uses, holding JSON: a replica of an older build reads it as a value
 * it ignores (a field of any other kind would make it drop the session as unreadable mid-deploy).
 */
const TAKEN = `${VALUE}outpost.flash-taken:`;
/**
 * How long a read's lease on the flashes it took lasts: longer than a page's loaders take, so a
 * flash is never shown twice; once it lapses (its read's answer never came, its page failed
 * before writing), the next read puts the flash back rather than it being lost.
 */
export const FLASH_LEASE_MS = 10_000;
/** 32 random bytes, base64url: an id nobody guesses, and the only thing the cookie carries. */
const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A session whose values are over MAX_SESSION_BYTES: a server error naming the size and the limit. */
export class SessionTooLargeError extends RangeError {
  override name = "SessionTooLargeError";
  constructor(bytes: number) {
    super(`The session's values are ${bytes} bytes, over the ${MAX_SESSION_BYTES} bytes a Redis session may hold (SESSION_STORE=redis)`);
  }
}

/** A value nested deeper than MAX_VALUE_NESTING: refused at its write, a server error naming the limit. */
export class SessionValueTooDeepError extends RangeError {
  override name = "SessionValueTooDeepError";
  constructor(field: string) {
    super(`The session value ${JSON.stringify(field.slice(VALUE.length))} nests arrays and objects over ${MAX_VALUE_NESTING} deep, more than a Redis session may hold (SESSION_STORE=redis)`);
  }
}

const newId = () => randomBytes(32).toString("base64url");
const emptyValues = () => Object.create(null) as SessionValues;

/** The signed id the request's cookie carries; undefined without one. */
function signedId(ctx: Context): { id: string; rotated: boolean } | undefined {
  const cookie = signedSessionCookie(ctx);
  return cookie && ID_PATTERN.test(cookie.value) ? { id: cookie.value, rotated: cookie.rotated } : undefined;
}

/**
 * The session's values from the read script's one JSON text (`[values]` or `[values, flashed]`),
 * without prototypes, so a stored `__proto__` or `constructor` is just a key; throws on a text
 * that is not one.
 */
function valuesOf(json: string): SessionValues {
  const [values, flashed] = JSON.parse(json) as [SessionValues, SessionValues?];
  Object.setPrototypeOf(values, null);
  if (flashed !== undefined) values[FLASH_KEY] = Object.setPrototypeOf(flashed, null) as SessionValues;
  return values;
}

/** Every value of the session, for a write to a new id. */
function wholeOps(values: SessionValues): WriteOp[] {
  const ops: WriteOp[] = [];
  const set = (field: string, value: unknown) => {
    const text = JSON.stringify(value);
    if (text !== undefined) ops.push(["s", field, text]);
  };
  for (const key of Object.keys(values)) if (key !== FLASH_KEY) set(VALUE + key, values[key]);
  const flashed = (values[FLASH_KEY] ?? {}) as SessionValues;
  for (const key of Object.keys(flashed)) set(FLASHED + key, flashed[key]);
  return ops;
}

/** What this request changed, field by field: what other requests changed meanwhile stays. */
function changeOps({ values, flashLease }: LoadedSession, changes: SessionChanges): WriteOp[] {
  // The flashes this request's read took are shown (or put back below) now: their lease ends.
  const ops: WriteOp[] = (flashLease?.keys ?? []).map((key) => ["x", TAKEN + key, flashLease?.lease ?? ""]);
  for (const key of changes.set) {
    const text = Object.hasOwn(values, key) ? JSON.stringify(values[key]) : undefined;
    ops.push(text === undefined ? ["d", VALUE + key, ""] : ["s", VALUE + key, text]);
  }
  for (const [key, by] of changes.added) ops.push(["i", VALUE + key, String(by)]);
  const flashed = (values[FLASH_KEY] ?? {}) as SessionValues;
  for (const key of changes.flashed) {
    const text = Object.hasOwn(flashed, key) ? JSON.stringify(flashed[key]) : undefined;
    if (text !== undefined) ops.push(["s", FLASHED + key, text]);
  }
  for (const key of Object.keys(changes.restore)) {
    const text = changes.flashed.has(key) ? undefined : JSON.stringify(changes.restore[key]);
    if (text !== undefined) ops.push(["n", FLASHED + key, text]);
  }
  return ops;
}

export interface RedisStoreOptions {
  /** Counts a session page refused for want of Redis. */
  onUnavailable?: () => void;
  /** Where an unreadable stored session is warned about (never its id or values). */
  logger?: Pick<Logger, "warn">;
}

/**
 * Sessions in Redis (SESSION_STORE=redis): the cookie holds only a signed random id, the values
 * live in a hash under it, one field per key, for the session's lifetime (renewed by every
 * write). Scripts keep concurrent requests apart (docs/decisions/0058-redis-sessions-per-key.md):
 * a write changes only the fields its request changed, and only while the session still
 * exists, so ending a session (`clear()`, `regenerate()`) ends it for every copy of its cookie,
 * on every replica, whatever was reading it at the time.
 */
export function redisStore({ client, coalesceWrites }: RedisConnection, { onUnavailable = () => {}, logger }: RedisStoreOptions = {}): SessionStore {
  const scripts = sessionScripts(client);
  // Without an offline queue, a command while disconnected fails at once; a stalled Redis within REDIS_TIMEOUT_MS.
  const unreachable = (error: unknown): never => {
    throw new SessionStoreUnavailableError(error);
  };
  const unreadable = (reason: string) => logger?.warn({ reason }, "session in Redis unreadable: read as an empty session and deleted");

  const prefixes = { value: VALUE, flash: FLASHED, taken: TAKEN };
  const readSession = batchedReads<LoadedSession>((keys) => scripts.read(keys, MAX_SESSION_BYTES, prefixes, FLASH_LEASE_MS));
  const loaded = (reply: ReadReply, key: string, signed: { id: string; rotated: boolean }): LoadedSession => {
    if (reply[0] === -1) unreadable(`over the ${MAX_SESSION_BYTES} bytes a session may hold`);
    if (reply[0] === -2) unreadable("not a hash of session fields");
    if (reply[0] === -4) unreadable("a field is not JSON, or not a session field");
    if (reply[0] !== 1) return { values: emptyValues() };
    try {
      const values = valuesOf(reply[1]);
      const flashed = values[FLASH_KEY] as SessionValues | undefined;
      const flashLease = flashed === undefined ? undefined : { lease: reply[2], keys: Object.keys(flashed) };
      return { values, id: signed.id, rotated: signed.rotated, flashesTaken: true, flashLease };
    } catch {
      unreadable("a field is not JSON, or not a session field");
      client.del(key).catch(() => {});
      return { values: emptyValues() };
    }
  };

  /**
   * Writes the session under `id` and gives its cookie; a session ended or expired meanwhile stays
   * ended and its cookie is left alone: the answer that ended it (a signed-in visitor's new
   * cookie, say) may reach the browser first.
   */
  const run = async (ctx: Context, id: string, from: string | undefined, mode: WriteMode, ops: WriteOp[]): Promise<void> => {
    // Refused before anything is sent when this request's own values are already too many.
    const own = ops.reduce((sum, [, field, value]) => sum + Buffer.byteLength(field) + Buffer.byteLength(value), 0);
    if (own > MAX_SESSION_BYTES) throw new SessionTooLargeError(own);
    for (const [op, field, value] of ops) if (op !== "x" && nestsTooDeep(value)) throw new SessionValueTooDeepError(field);
    coalesceWrites();
    const reply = await scripts.write(KEY_PREFIX + id, from ?? KEY_PREFIX + id, mode, SESSION_MAX_AGE_MS, MAX_SESSION_BYTES, ops).catch(unreachable);
    if (reply[0] === -1) throw new SessionTooLargeError(reply[1]);
    if (reply[0] === 1) ctx.cookies.set(SESSION_COOKIE, id, SESSION_COOKIE_OPTIONS);
  };


  return {
    fetches: true,
    read(ctx) {
      const signed = signedId(ctx);
      if (!signed) return { values: emptyValues() };
      const key = KEY_PREFIX + signed.id;
      // An id whose values are gone (ended, expired) is never used again: a write starts a new one.
      const read = readSession(key, (reply) => loaded(reply, key, signed));
      // Corked after the batch was due, so the batch leaves in the turn's one write.
      coalesceWrites();
      return read;
    },
    emptied: (ctx, read) => ({ values: emptyValues(), id: read ? read.id : signedId(ctx)?.id }),
    async write(ctx, session, changes) {
      const old = session.id === undefined ? undefined : KEY_PREFIX + session.id;
      if (changes.cleared || session.id === undefined) {
        // A new session: all its values under a new id (the old one, after clear(), deleted in the same step).
        if (Object.keys(session.values).length === 0) {
          if (old) await client.del(old).catch(unreachable);
          ctx.cookies.set(SESSION_COOKIE, "", { ...SESSION_COOKIE_OPTIONS, expires: new Date(0), maxAge: undefined });
          return;
        }
        return run(ctx, newId(), old, old ? "replace" : "create", wholeOps(session.values));
      }
      // Only this request's changes, and only while the session still exists (under a new id for regenerate()).
      return run(ctx, changes.renew ? newId() : session.id, old, changes.renew ? "rename" : "update", changeOps(session, changes));
    },
    unavailable: onUnavailable,
  };
}
