import type Keygrip from "keygrip";
import type { Context } from "koa";

/** The session cookie's name. */
export const SESSION_COOKIE = "outpost.session";
/** A session lasts two weeks from its last change. */
export const SESSION_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;

/**
 * The session cookie's attributes, for every store and every write: koa-session's own defaults
 * (Path=/) with ours. Secure is left to the cookies package: set when the request is HTTPS
 * (behind a trusted proxy, its X-Forwarded-Proto).
 */
export const SESSION_COOKIE_OPTIONS = {
  path: "/",
  maxAge: SESSION_MAX_AGE_MS,
  httpOnly: true,
  signed: true,
  sameSite: "lax",
  overwrite: true,
} as const;

/** A session cookie whose signature holds: its value, and whether a key other than the current one signed it. */
export interface SignedCookie {
  value: string;
  rotated: boolean;
}

/**
 * The session cookie checked against every key of `app.keys`. Checked here rather than by
 * `ctx.cookies.get(name, { signed: true })`, which re-signs a cookie of an older key on the spot
 * with bare attributes (no Max-Age, no SameSite): the browser would keep that signature only
 * until it closes. The store writes such a session again, whole, with the current key.
 */
export function signedSessionCookie(ctx: Context): SignedCookie | undefined {
  const value = ctx.cookies.get(SESSION_COOKIE, { signed: false });
  if (!value) return undefined;
  const signature = ctx.cookies.get(`${SESSION_COOKIE}.sig`, { signed: false });
  if (!signature) return undefined;
  const index = (ctx.app.keys as unknown as Keygrip).index(`${SESSION_COOKIE}=${value}`, signature);
  return index < 0 ? undefined : { value, rotated: index > 0 };
}
