import type Koa from "koa";
import type { Context } from "koa";
import { HttpErrorSignal } from "../../shared/routing/signals";

/** Where flashed values wait for the next request, inside a session's values. */
export const FLASH_KEY = "outpost.flash";

/** A session's values: no prototype, so a stored `__proto__` or `constructor` is just a key. */
export type SessionValues = Record<string, unknown>;

/** A request's session as its store read it. */
export interface LoadedSession {
  /** This request's own copy: changing it changes nothing stored until it is written. */
  values: SessionValues;
  /** The server-side session's id (Redis store), when the request carried one. */
  id?: string;
  /** Its cookie was signed by a key other than the current one: written again, whole, with the current key. */
  rotated?: boolean;
  /** The store took the flashed values out as it read them (Redis): those this request does not use go back. */
  flashesTaken?: boolean;
  /** Redis: the lease under which the read took its flashes, and their keys; the write ends it. */
  flashLease?: { lease: string; keys: readonly string[] };
}

/** What one request changed, for a store that writes changes rather than the whole session (Redis). */
export interface SessionChanges {
  /** `clear()`: the values start again from none, and the old session ends. */
  cleared: boolean;
  /** `regenerate()` or `clear()`: the values move to a new id, the old one ended. */
  renew: boolean;
  /** Keys set: their values are the session's now (a key no longer there, or undefined, is removed). */
  set: ReadonlySet<string>;
  /** Numbers added by `increment`, by key: added to what is stored, not written over it. */
  added: ReadonlyMap<string, number>;
  /** Keys flashed: their values are in the session's flashed values. */
  flashed: ReadonlySet<string>;
  /** Flashed values the store took out at the read that this request did not use: put back unless flashed again meanwhile. */
  restore: Readonly<SessionValues>;
}

/** Where sessions live: a signed cookie (the default) or Redis (SESSION_STORE=redis). */
export interface SessionStore {
  /** True when `read` may have to wait (a server-side store), so pages learn whether to load the session first. */
  readonly fetches: boolean;
  /** The request's session; a promise only when it must be fetched. Rejects when the store is unreachable. */
  read(ctx: Context): LoadedSession | Promise<LoadedSession>;
  /** An empty session in place of the request's, without reading its values (`clear()`). */
  emptied(ctx: Context, read: LoadedSession | undefined): LoadedSession;
  /**
   * Writes the session (its cookie, and the store's copy), before the response starts; no
   * values left ends it. `changes.renew` gives it a new id (regenerate, clear), ending the old one.
   */
  write(ctx: Context, session: LoadedSession, changes: SessionChanges): Promise<void>;
  /** Counts a session page answered 503 because the store could not be reached. */
  unavailable(): void;
  /** Sets up what the store needs on each app that serves it (the cookie store: koa-session's writer). */
  attach?(app: Koa): void;
}

/** Seconds a client is told to wait when the session store cannot be reached. */
export const SESSION_RETRY_AFTER_SECONDS = 5;
const UNAVAILABLE = "Sessions are unavailable for a moment; try again shortly.";

/**
 * The store could not be reached to write a session: the page handler answers the request's
 * error page (or data answer) with `sessionUnavailable()` instead, never reported as a bug. Its
 * status and headers are Koa's fallback should one ever reach Koa.
 */
export class SessionStoreUnavailableError extends Error {
  override name = "SessionStoreUnavailableError";
  readonly status = 503;
  readonly expose = true;
  readonly headers = { "Retry-After": String(SESSION_RETRY_AFTER_SECONDS) };
  constructor(cause: unknown) {
    super(UNAVAILABLE, { cause });
  }
}

/** A session page's answer while its store cannot be reached: 503 with Retry-After, shown like any `httpError`. */
export function sessionUnavailable(): HttpErrorSignal {
  return new HttpErrorSignal(503, { message: UNAVAILABLE }, { "Retry-After": String(SESSION_RETRY_AFTER_SECONDS) });
}
