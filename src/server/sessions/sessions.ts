import { randomBytes } from "node:crypto";
import type Koa from "koa";
import createSession from "koa-session";
import type { Logger } from "../logger";
import { rememberingKeys } from "./remembering-keys";

/** The session cookie's name. */
export const SESSION_COOKIE = "outpost.session";
/** A session lasts two weeks from its last change. */
const SESSION_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;
/** Browsers drop cookies over 4 KB: a longer one was never ours. */
const MAX_COOKIE_CHARS = 4096;

/** A cookie that is no session (not base64 JSON of an object) reads as an empty one. */
function decode(value: string): unknown {
  if (value.length > MAX_COOKIE_CHARS) throw new SyntaxError("session cookie too long");
  const parsed: unknown = JSON.parse(Buffer.from(value, "base64").toString("utf8"));
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new SyntaxError("session cookie is no object");
  return parsed;
}

/**
 * Signed cookies and the session, with Koa's own machinery: `app.keys` signs cookies (the first
 * key signs, every key verifies, so a secret can be rotated), and koa-session keeps the session
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
