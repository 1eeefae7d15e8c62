import { randomBytes } from "node:crypto";
import { debuglog } from "node:util";
import type Koa from "koa";
import type { Context } from "koa";
import createSession from "koa-session";
import type { Logger } from "../logger";
import { rememberedSession, rememberSession } from "./remembered-sessions";
import { rememberingKeys } from "./remembering-keys";

/** The session cookie's name. */
export const SESSION_COOKIE = "outpost.session";
/** A session lasts two weeks from its last change. */
const SESSION_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;
/** Browsers drop cookies over 4 KB: a longer one was never ours. */
const MAX_COOKIE_CHARS = 4096;

// NODE_DEBUG=outpost-session shows why a cookie read as an empty session; never its value.
const debug = debuglog("outpost-session");

/** A session's values: no prototype, so a stored `__proto__` or `constructor` is just a key. */
export type SessionValues = Record<string, unknown>;

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
 * Signed cookies and the session, with Koa's own machinery: `app.keys` signs cookies (the first
 * key signs, every key verifies, so a secret can be rotated), and koa-session writes the session
 * in a signed cookie. Nothing is read until a route uses the session, and it is written by the
 * page handler before the response starts (a streamed page sends its headers early), not by a
 * middleware after it.
 */
export function installSessions(app: Koa, secrets: readonly string[], logger: Logger): void {
  if (secrets.length > 0) {
    app.keys = rememberingKeys(secrets);
  } else {
    app.keys = rememberingKeys([randomBytes(32).toString("base64url")]);
    logger.warn("SESSION_SECRET is not set: signing with a random key, so sessions end when the server restarts and are not shared between replicas");
  }
  createSession(
    {
      key: SESSION_COOKIE,
      maxAge: SESSION_MAX_AGE_MS,
      autoCommit: false,
      httpOnly: true,
      signed: true,
      sameSite: "lax",
      decode,
      // Secure is left to the cookies package: set when the request is HTTPS (behind a trusted proxy, its X-Forwarded-Proto).
    },
    app,
  );
}

/**
 * The session's values from its signed cookie, as koa-session wrote them; empty for no cookie, a
 * bad signature, garbage or an expired session. Read here rather than through koa-session, whose
 * per-request session objects and change hash cost a page that only reads more than the read
 * itself; and a header read before is not read again (docs/decisions/0033-session-read-path.md).
 */
export function readSession(ctx: Context): SessionValues {
  const values: SessionValues = Object.create(null);
  const header = ctx.req.headers.cookie;
  const known = rememberedSession(ctx.app, header);
  if (known) return Object.assign(values, known);
  const stored = storedSession(ctx);
  if (!stored) return values;
  // koa-session's own fields start with "_" (its expiry and max age); it never stores such keys.
  for (const key of Object.keys(stored)) if (!key.startsWith("_")) values[key] = stored[key];
  rememberSession(ctx.app, header, values, typeof stored._expire === "number" ? stored._expire : undefined);
  return values;
}

/** The signed session cookie's stored object, checked in full; undefined when there is none to use. */
function storedSession(ctx: Context): SessionValues | undefined {
  const cookie = ctx.cookies.get(SESSION_COOKIE, { signed: true });
  if (!cookie) return undefined;
  let stored: SessionValues;
  try {
    stored = decode(cookie);
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
export function saveSession(ctx: Context, values: SessionValues): Promise<void> {
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
