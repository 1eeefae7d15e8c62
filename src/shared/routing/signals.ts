import { locationHeader } from "./location";

/**
 * The framework's control-flow signals. Loaders, actions and middleware throw them; the server
 * turns them into a redirect, a 404 or another 4xx. They are recognised by class *and* by a tagged marker, because
 * a bundler can load two copies of this module (server bundle vs. SDK hooks), which breaks
 * `instanceof` but not a symbol registered with Symbol.for.
 */
const SIGNAL = Symbol.for("outpost.signal");

export type RedirectStatus = 301 | 302 | 303 | 307 | 308;
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Headers an answer carries: a list of pairs (or an array value) repeats a name, as several Set-Cookie need. */
export type ResponseHeaders = Record<string, string | readonly string[]> | Iterable<readonly [string, string]>;

export interface SignalInit {
  headers?: ResponseHeaders;
}

export class RedirectSignal extends Error {
  readonly [SIGNAL] = "redirect" as const;
  constructor(
    readonly location: string,
    readonly status: RedirectStatus = 307,
    readonly headers?: ResponseHeaders,
  ) {
    super(`redirect to ${location}`);
    this.name = "RedirectSignal";
  }
}

/** A 4xx a route means to answer (not an error of ours): shown by the nearest error component, never reported. */
export class HttpErrorSignal extends Error {
  readonly [SIGNAL] = "http-error" as const;
  constructor(
    readonly status: number,
    readonly data: unknown,
    readonly headers?: ResponseHeaders,
  ) {
    super(`http error ${status}`);
    this.name = "HttpErrorSignal";
  }
}

export class NotFoundSignal extends Error {
  readonly [SIGNAL] = "not-found" as const;
  constructor() {
    super("not found");
    this.name = "NotFoundSignal";
  }
}

/** Redirects, the target encoded for the header (a target no header can carry throws a TypeError): `redirect("/", 303)` or `redirect("/", { status: 303, headers: { "Set-Cookie": … } })`. */
export function redirect(location: string, init: RedirectStatus | (SignalInit & { status?: RedirectStatus }) = 307): never {
  const target = locationHeader(location);
  const status = typeof init === "number" ? init : (init.status ?? 307);
  // The type is lost to plain JavaScript and `as` casts; any other status would answer a Location with no redirect.
  if (!REDIRECT_STATUSES.has(status)) throw new RangeError(`redirect takes a status of 301, 302, 303, 307 or 308, got ${status}`);
  throw new RedirectSignal(target, status, typeof init === "number" ? undefined : init.headers);
}

/** Answers a 4xx with data for the nearest error component: `httpError(403, { reason: "…" })`. */
export function httpError(status: number, data: unknown = null, init: SignalInit = {}): never {
  if (!Number.isInteger(status) || status < 400 || status > 499) throw new RangeError(`httpError takes a 4xx status, got ${status}`);
  throw new HttpErrorSignal(status, data, init.headers);
}

/** Each header as a name and one value, a repeated name once per value. */
export function headerPairs(headers: ResponseHeaders | undefined): [string, string][] {
  if (!headers) return [];
  if (Symbol.iterator in headers) return [...(headers as Iterable<readonly [string, string]>)].map(([name, value]) => [name, value]);
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(headers as Record<string, string | readonly string[]>)) {
    if (typeof value === "string") pairs.push([name, value]);
    else for (const each of value) pairs.push([name, each]);
  }
  return pairs;
}

export function notFound(): never {
  throw new NotFoundSignal();
}

function signalKind(value: unknown): unknown {
  return typeof value === "object" && value !== null
    ? (value as { [SIGNAL]?: unknown })[SIGNAL]
    : undefined;
}

export function isRedirectSignal(value: unknown): value is RedirectSignal {
  return signalKind(value) === "redirect";
}

export function isNotFoundSignal(value: unknown): value is NotFoundSignal {
  return signalKind(value) === "not-found";
}

export function isHttpErrorSignal(value: unknown): value is HttpErrorSignal {
  return signalKind(value) === "http-error";
}

/** Any signal: a route's answer, never an error to log or report. */
export function isSignal(value: unknown): boolean {
  return signalKind(value) !== undefined;
}
