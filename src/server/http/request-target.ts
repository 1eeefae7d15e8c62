import type { IncomingMessage } from "node:http";
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

/** The request's protocol as Koa's `ctx.protocol` reads it: X-Forwarded-Proto's first value only under proxy trust. */
function protocolOf(req: IncomingMessage, proxy: boolean): string {
  if ((req.socket as { encrypted?: boolean }).encrypted) return "https";
  if (!proxy) return "http";
  const value = req.headers["x-forwarded-proto"];
  const forwarded = Array.isArray(value) ? value.join(",") : value;
  return forwarded ? (forwarded.split(",", 1)[0] as string).trim().toLowerCase() : "http";
}

/** The Host header the origin is read from, by name, and its first value; empty when missing. */
function hostOf(req: IncomingMessage, proxy: boolean): { header: string; host: string } {
  const { headers } = req;
  const forwardedValue = proxy ? headers["x-forwarded-host"] : undefined;
  const forwardedHost = Array.isArray(forwardedValue) ? forwardedValue.join(",") : forwardedValue;
  // The header itself, not Koa's `ctx.host`, which drops a user part a Host must not have.
  return { header: forwardedHost ? "X-Forwarded-Host" : "Host", host: firstValue(forwardedHost || headers.host || "") };
}

/** Why the request's URL cannot be built, in words safe to answer with; undefined when it can. */
function problemOf(ctx: Context): string | undefined {
  const proxy = ctx.app.proxy;
  const protocol = protocolOf(ctx.req, proxy);
  if (protocol !== "http" && protocol !== "https") return "Malformed X-Forwarded-Proto header";
  const { header, host } = hostOf(ctx.req, proxy);
  if (!host) return `Missing ${header} header`;
  if (!ctx.path.startsWith("/")) return "Malformed request target";
  const origin = cachedOriginOf(protocol, host);
  if (origin === null) return `Malformed ${header} header`;
  (ctx.state as CheckedState).outpostOrigin = origin;
  return undefined;
}

/**
 * Whether `requestTarget` lets a request with this protocol and host through, for an answer
 * written before Koa (fixed-answers.ts) to a path known to start with "/"; one it would refuse is
 * left to it.
 */
export function hasValidTarget(req: IncomingMessage, proxy: boolean): boolean {
  const protocol = protocolOf(req, proxy);
  if (protocol !== "http" && protocol !== "https") return false;
  const host = req.headers["x-forwarded-host"] === undefined || !proxy ? firstValue(req.headers.host || "") : hostOf(req, proxy).host;
  return host !== "" && cachedOriginOf(protocol, host) !== null;
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
