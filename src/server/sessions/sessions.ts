import { randomBytes } from "node:crypto";
import type Keygrip from "keygrip";
import type Koa from "koa";
import type { Logger } from "../logging/logger";
import { cookieStore } from "./cookie-store";
import { rememberingKeys } from "./remembering-keys";
import type { RequestSessions } from "./request-session";
import type { SessionStore } from "./session-store";

export { SESSION_COOKIE } from "./session-cookie";
export type { SessionValues } from "./session-store";

/** An app's sessions: the keys that sign its cookies, the store its sessions live in, and what its requests learnt of them. */
export interface SessionServices extends RequestSessions {
  keys: Keygrip;
}

/**
 * Signed cookies and the session: the first key signs, every key verifies (so a secret can be
 * rotated), and the session lives in its store (the signed cookie itself when no server-side
 * store is given). Without secrets a random key signs, and that is worth a warning.
 */
export function createSessions(secrets: readonly string[], store: SessionStore | undefined, logger: Logger): SessionServices {
  if (secrets.length === 0) {
    logger.warn("SESSION_SECRET is not set: signing with a random key, so sessions end when the server restarts and are not shared between replicas");
  }
  const keys = rememberingKeys(secrets.length > 0 ? secrets : [randomBytes(32).toString("base64url")]);
  return { keys, store: store ?? cookieStore(), touchingChains: new Set() };
}

/**
 * Gives the app its sessions: `app.keys` signs its cookies, and the store is set up on it. Nothing
 * is read until a route uses the session, and it is written by the page handler before the
 * response starts (a streamed page sends its headers early), not by a middleware after it.
 */
export function installSessions(app: Koa, sessions: SessionServices): void {
  app.keys = sessions.keys;
  sessions.store.attach?.(app);
}
