import { randomBytes } from "node:crypto";
import type Koa from "koa";
import type { Logger } from "../logging/logger";
import { cookieStore } from "./cookie-store";
import { rememberingKeys } from "./remembering-keys";
import { type SessionStore, setSessionStore } from "./session-store";

export { SESSION_COOKIE } from "./session-cookie";
export type { SessionValues } from "./session-store";

export interface SessionOptions {
  /** SESSION_SECRET: the first signs, every one verifies. */
  secrets: readonly string[];
  /** The server-side store (SESSION_STORE=redis); the signed cookie itself when absent. */
  store?: SessionStore;
}

/**
 * Signed cookies and the session: `app.keys` signs cookies (the first key signs, every key
 * verifies, so a secret can be rotated), and the session lives in its store. Nothing is read
 * until a route uses the session, and it is written by the page handler before the response
 * starts (a streamed page sends its headers early), not by a middleware after it.
 */
export function installSessions(app: Koa, options: SessionOptions, logger: Logger): void {
  if (options.secrets.length > 0) {
    app.keys = rememberingKeys(options.secrets);
  } else {
    app.keys = rememberingKeys([randomBytes(32).toString("base64url")]);
    logger.warn("SESSION_SECRET is not set: signing with a random key, so sessions end when the server restarts and are not shared between replicas");
  }
  setSessionStore(app, options.store ?? cookieStore(app));
}
