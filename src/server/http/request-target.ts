import type { Context, Middleware } from "koa";
import { refuse } from "./refuse";

// A host name or IP literal, with an optional port: nothing that could carry a path, user or query.
const HOST = /^(?:[a-z0-9._~!$&'()*+,;=-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

// Kept on ctx.state, whose shape requests share: a new key on Koa's context itself slows every later access to it.
interface CheckedState {
  outpostOrigin?: string;
}

function originOf(protocol: string, host: string): string | null {
  if (!HOST.test(host)) return null;
  try {
    return new URL(`${protocol}://${host}`).origin;
  } catch {
    return null; // a port above 65535, a label IDNA refuses
  }
}

// A site answers a handful of hosts: each one's origin is worked out once. Bounded, so a client
// sending a new Host every time only keeps the map small. The last one is kept beside the map:
// nearly every request asks for the same host as the one before.
const KNOWN_ORIGINS_MAX = 64;
const knownOrigins = new Map<string, string | null>();
let last = { protocol: "", host: "", origin: null as string | null };

function cachedOriginOf(protocol: string, host: string): string | null {
  if (host === last.host && protocol === last.protocol) return last.origin;
  const key = `${protocol} ${host}`;
  let origin = knownOrigins.get(key);
  if (origin === undefined) {
    origin = originOf(protocol, host);
    if (knownOrigins.size >= KNOWN_ORIGINS_MAX) knownOrigins.clear();
    knownOrigins.set(key, origin);
  }
  last = { protocol, host, origin };
  return origin;
}

/** The first of a header's comma-joined values (Node joins a repeated X-Forwarded-Host), trimmed. */
function firstValue(value: string): string {
  const comma = value.indexOf(",");
  return (comma < 0 ? value : value.slice(0, comma)).trim();
}

/** Why the request's URL cannot be built, in words safe to answer with; undefined when it can. */
function problemOf(ctx: Context): string | undefined {
  const forwarded = ctx.app.proxy;
  const protocol = ctx.protocol;
  if (protocol !== "http" && protocol !== "https") return "Malformed X-Forwarded-Proto header";
  const { headers } = ctx.req;
  const forwardedValue = forwarded ? headers["x-forwarded-host"] : undefined;
  const forwardedHost = Array.isArray(forwardedValue) ? forwardedValue.join(",") : forwardedValue;
  const hostHeader = forwardedHost ? "X-Forwarded-Host" : "Host";
  // The header itself, not Koa's `ctx.host`, which drops a user part a Host must not have.
  const host = firstValue(forwardedHost || headers.host || "");
  if (!host) return `Missing ${hostHeader} header`;
  if (!ctx.path.startsWith("/")) return "Malformed request target";
  const origin = cachedOriginOf(protocol, host);
  if (origin === null) return `Malformed ${hostHeader} header`;
  (ctx.state as CheckedState).outpostOrigin = origin;
  return undefined;
}

/**
 * Refuses, with a short 400, a request whose Host, forwarded host or protocol, or target cannot
 * make a valid URL: the client's mistake, never a 500 and never reported. Everything after it
 * reads the request's URL through `requestUrl`.
 */
export function requestTarget(): Middleware {
  return (ctx, next) => {
    const problem = problemOf(ctx);
    if (problem) return refuse(ctx, 400, problem);
    return next();
  };
}

/**
 * The URL of `pathname` (the request's own by default) on the request's origin, checked by
 * `requestTarget`, with the request's query. Koa's `ctx.URL` is an empty object when it cannot
 * build one, and reads an absolute-form target's own authority.
 */
export function requestUrl(ctx: Context, pathname: string = ctx.path): URL {
  const origin = (ctx.state as CheckedState).outpostOrigin;
  if (origin === undefined) throw new Error("requestUrl needs the requestTarget middleware in front");
  // Joined as text, not resolved: a path starting with // stays a path on this host.
  return new URL(`${origin}${pathname}${ctx.search}`);
}

/** The request's origin as `requestTarget` checked it (a forwarded one under TRUST_PROXY); undefined without that middleware. */
export function requestOrigin(ctx: Context): string | undefined {
  return (ctx.state as CheckedState).outpostOrigin;
}

/** Gives `to` (a background render of the same request) the origin `requestTarget` checked for `from`. */
export function carryRequestTarget(from: Context, to: Context): void {
  (to.state as CheckedState).outpostOrigin = (from.state as CheckedState).outpostOrigin;
}
