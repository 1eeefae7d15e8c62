import { debuglog } from "node:util";
import type Koa from "koa";
import type { Context } from "koa";
import createSession from "koa-session";
import { type RememberedSessions, rememberedSessions } from "./remembered-sessions";
import { SESSION_COOKIE, SESSION_COOKIE_OPTIONS, signedSessionCookie } from "./session-cookie";
import type { LoadedSession, SessionStore, SessionValues } from "./session-store";

/** Browsers drop cookies over 4 KB: a longer one was never ours. */
const MAX_COOKIE_CHARS = 4096;

// NODE_DEBUG=outpost-session shows why a cookie read as an empty session; never its value.
const debug = debuglog("outpost-session");

/** koa-session's session object: the values, and its commit. */
type KoaSession = SessionValues & { manuallyCommit(): Promise<void> };
type SessionContext = Context & { session: KoaSession | SessionValues | null };

/** A cookie that is no session (not base64 JSON of an object) reads as an empty one. */
function decode(value: string): SessionValues {
  if (value.length > MAX_COOKIE_CHARS) throw new SyntaxError("session cookie too long");
  const parsed: unknown = JSON.parse(Buffer.from(value, "base64").toString("utf8"));
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new SyntaxError("session cookie is no object");
  return parsed as SessionValues;
}

/**
 * The session in a signed cookie (SESSION_STORE=cookie, the default), with Koa's own machinery:
 * koa-session writes it (its format, expiry, signing with `app.keys`); reading is ours
 * (docs/decisions/0033-session-read-path.md). Never waits: everything is in the request.
 */
export function cookieStore(): SessionStore {
  const { path: _path, overwrite: _overwrite, ...cookie } = SESSION_COOKIE_OPTIONS;
  const remembered = rememberedSessions();
  return {
    fetches: false,
    read: (ctx) => readSession(ctx, remembered),
    emptied: () => ({ values: Object.create(null) as SessionValues }),
    write: (ctx, session) => saveSession(ctx, session.values),
    unavailable: () => {},
    attach: (app: Koa) => void createSession({ key: SESSION_COOKIE, autoCommit: false, decode, ...cookie }, app),
  };
}

/**
 * The session's values from its signed cookie, as koa-session wrote them; empty for no cookie, a
 * bad signature, garbage or an expired session. Read here rather than through koa-session, whose
 * per-request session objects and change hash cost a page that only reads more than the read
 * itself; and a header read before is not read again.
 */
function readSession(ctx: Context, remembered: RememberedSessions): LoadedSession {
  const values: SessionValues = Object.create(null);
  const header = ctx.req.headers.cookie;
  const known = remembered.recall(header);
  if (known) return { values: Object.assign(values, known) };
  const cookie = signedSessionCookie(ctx);
  const stored = cookie && storedSession(cookie.value);
  if (!stored) return { values };
  // koa-session's own fields start with "_" (its expiry and max age); it never stores such keys.
  for (const key of Object.keys(stored)) if (!key.startsWith("_")) values[key] = stored[key];
  // Not remembered: the next answer carries it signed with the current key.
  if (cookie.rotated) return { values, rotated: true };
  remembered.remember(header, values, typeof stored._expire === "number" ? stored._expire : undefined);
  return { values };
}

/** The cookie's stored object, checked in full; undefined when there is none to use. */
function storedSession(value: string): SessionValues | undefined {
  let stored: SessionValues;
  try {
    stored = decode(value);
  } catch (error) {
    debug("session cookie unreadable: %s", (error as Error).message);
    return undefined;
  }
  if (typeof stored._expire === "number" && stored._expire < Date.now()) {
    debug("session cookie expired");
    return undefined;
  }
  return stored;
}

/** Writes the session's cookie with koa-session, or removes it when no value is left. */
function saveSession(ctx: Context, values: SessionValues): Promise<void> {
  const sessions = ctx as SessionContext;
  if (Object.keys(values).length === 0) {
    // koa-session removes the cookie of a session set to null; its handle, taken first, commits that.
    const handle = sessions.session as KoaSession | null;
    sessions.session = null;
    return handle ? handle.manuallyCommit() : Promise.resolve();
  }
  sessions.session = values;
  return (sessions.session as KoaSession).manuallyCommit();
}
