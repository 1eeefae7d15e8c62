import { randomBytes } from "node:crypto";
import type { Context } from "koa";
import type { RedisConnection } from "../redis/redis-connection";
import { SESSION_COOKIE, SESSION_COOKIE_OPTIONS, SESSION_MAX_AGE_MS, signedSessionCookie } from "./session-cookie";
import { type LoadedSession, type SessionStore, SessionStoreUnavailableError, type SessionValues } from "./session-store";

/** The most a session's values may take, as JSON: far above a cookie's 4 KB, yet a bounded read per page. */
export const MAX_SESSION_BYTES = 64 * 1024;
const KEY_PREFIX = "outpost:session:";
/** 32 random bytes, base64url: an id nobody guesses, and the only thing the cookie carries. */
const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A session whose values are over MAX_SESSION_BYTES: a server error naming the size and the limit. */
export class SessionTooLargeError extends RangeError {
  override name = "SessionTooLargeError";
}

const newId = () => randomBytes(32).toString("base64url");
const emptyValues = () => Object.create(null) as SessionValues;

function parseValues(text: string): SessionValues {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return emptyValues();
  return Object.assign(emptyValues(), parsed);
}

/** The signed id the request's cookie carries; undefined without one. */
function signedId(ctx: Context): { id: string; rotated: boolean } | undefined {
  const cookie = signedSessionCookie(ctx);
  return cookie && ID_PATTERN.test(cookie.value) ? { id: cookie.value, rotated: cookie.rotated } : undefined;
}

/**
 * Sessions in Redis (SESSION_STORE=redis): the cookie holds only a signed random id, the values
 * live under it for the session's lifetime (renewed by every write), so ending a session
 * (`clear()`, `regenerate()`) ends it for every copy of its cookie, on every replica.
 */
export function redisStore({ client }: RedisConnection, onUnavailable: () => void = () => {}): SessionStore {
  // Without an offline queue, a command while disconnected fails at once; a stalled Redis within REDIS_TIMEOUT_MS.
  const unreachable = (error: unknown): never => {
    throw new SessionStoreUnavailableError(error);
  };
  const redis = {
    get: (key: string) => client.get(key),
    set: (key: string, value: string, ttlMs: number) => client.set(key, value, "PX", ttlMs).catch(unreachable),
    del: (key: string) => client.del(key).catch(unreachable),
  };
  return {
    fetches: true,
    read(ctx) {
      const signed = signedId(ctx);
      if (!signed) return { values: emptyValues() };
      // An id whose values are gone (ended, expired) is never used again: a write starts a new one.
      return redis.get(KEY_PREFIX + signed.id).then((text): LoadedSession => (text === null ? { values: emptyValues() } : { values: parseValues(text), id: signed.id, rotated: signed.rotated }));
    },
    emptied: (ctx, read) => ({ values: emptyValues(), id: read ? read.id : signedId(ctx)?.id }),
    async write(ctx, session, renew) {
      const ending = renew && session.id !== undefined ? KEY_PREFIX + session.id : undefined;
      if (Object.keys(session.values).length === 0) {
        if (ending) await redis.del(ending);
        ctx.cookies.set(SESSION_COOKIE, "", { ...SESSION_COOKIE_OPTIONS, expires: new Date(0), maxAge: undefined });
        return;
      }
      const text = JSON.stringify(session.values);
      const bytes = Buffer.byteLength(text);
      if (bytes > MAX_SESSION_BYTES) {
        throw new SessionTooLargeError(`The session's values are ${bytes} bytes as JSON, over the ${MAX_SESSION_BYTES} bytes a Redis session may hold (SESSION_STORE=redis)`);
      }
      const id = renew || session.id === undefined ? newId() : session.id;
      await Promise.all([ending && redis.del(ending), redis.set(KEY_PREFIX + id, text, SESSION_MAX_AGE_MS)]);
      ctx.cookies.set(SESSION_COOKIE, id, SESSION_COOKIE_OPTIONS);
    },
    unavailable: onUnavailable,
  };
}
