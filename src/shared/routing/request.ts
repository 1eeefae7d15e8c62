import type { Params } from "./match";

/** What a visitor writes about a problem: sent to error reporting as Sentry user feedback. */
export interface UserFeedback {
  message: string;
  name?: string;
  email?: string;
  /** The reported event it is about (32 hex digits): Sentry links the two. */
  eventId?: string;
}

/**
 * What the server offers route code (middleware, loaders, actions, resource routes) besides the
 * request, as `context.services`. Platform modules add theirs by
 * declaration merging (the rate limits), so route code names no server file.
 */
export interface RouteServices {
  /** Sends user feedback to error reporting, returning its event id; absent while reporting is off (no SENTRY_DSN). */
  userFeedback?: (feedback: UserFeedback) => string;
}

/** Cookie attributes; unset ones take the safe defaults (HttpOnly, SameSite=Lax, Path=/, Secure over HTTPS). */
export interface CookieOptions {
  maxAge?: number;
  expires?: Date;
  path?: string;
  domain?: string;
  httpOnly?: boolean;
  sameSite?: "lax" | "strict" | "none";
  /** Signed with SESSION_SECRET; a signed cookie whose signature does not match reads as absent. */
  signed?: boolean;
}

export interface RequestCookies {
  /** A cookie's value; undefined when absent (or, for `signed`, when its signature is wrong). */
  get: (name: string, options?: { signed?: boolean }) => string | undefined;
  set: (name: string, value: string, options?: CookieOptions) => void;
  delete: (name: string, options?: Pick<CookieOptions, "path" | "domain">) => void;
}

/** The visitor's session: a signed cookie, or Redis behind a signed id (SESSION_STORE); read on first use only. */
export interface Session {
  /** A value; a flashed one is taken out of the session by its first request to read it. */
  get: <Value = unknown>(key: string) => Value | undefined;
  /** Saves a value: the session is written only when changed through `set`, `flash`, `clear` or `regenerate` (a value changed in place is not saved). */
  set: (key: string, value: unknown) => void;
  /**
   * Adds `by` (1 unless given) to a number (0 when absent or not a number) and returns the sum
   * this request sees; in Redis the addition is made on what is stored, so concurrent requests
   * never lose one another's (a `get` then `set` keeps only the last).
   */
  increment: (key: string, by?: number) => number;
  /** Saves a value read once, by the next request that gets it (the "Note saved" message after a redirect). */
  flash: (key: string, value: unknown) => void;
  /** Ends the session: its cookie is removed (and, in Redis, its values deleted). */
  clear: () => void;
  /** The same values under a new id, the old one ended: call it when the visitor signs in. */
  regenerate: () => void;
}

/** One accepted file part of a multipart body. */
export interface UploadedFile {
  /** Where it was written on the server; gone once the response has closed. */
  path: string;
  /** The name the browser gave, if any: the client's word, never a path to trust. */
  name: string | null;
  /** The part's Content-Type, if any. */
  type: string | null;
  size: number;
}

/** A typed slot for a value middleware puts on the request for the loaders and actions below it. */
export interface RequestValueKey<Value> {
  readonly name: string;
  /** Never set: carries the value's type. */
  readonly type?: Value;
}

export interface RequestValues {
  /** The value middleware set; throws, naming the key, when none did. */
  get: <Value>(key: RequestValueKey<Value>) => Value;
  set: <Value>(key: RequestValueKey<Value>, value: Value) => void;
  has: (key: RequestValueKey<unknown>) => boolean;
}

/** What the answer will carry besides its body. */
export interface ResponseControl {
  /** The page's status when it renders without error (a 201, say). */
  status: (code: number) => void;
  setHeader: (name: string, value: string) => void;
  appendHeader: (name: string, value: string) => void;
}

/**
 * What middleware, loaders and actions see of the request, one shape for all. Every field works
 * destructured (`({ header, cookies, session }) => …`): functions are bound, values are getters.
 */
export interface RequestContext<RouteParams extends Readonly<Params> = Params, Search = unknown> {
  /** The matched route's params; typed by its pattern in `LoaderContext<"/notes/:id">`. */
  params: RouteParams;
  /**
   * The query parsed by the page's `searchParams` schema, its defaults applied; typed by it in
   * `LoaderContext<"/notes", typeof searchParams>`. Undefined for a page without one.
   */
  search: Search;
  url: URL;
  method: string;
  /** A request header, in any case; "" when absent. */
  header: (name: string) => string;
  /** Every request header, lower-cased names. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed body of a POST (form fields, a string or an array when repeated, or JSON); undefined otherwise. */
  body: unknown;
  /**
   * The files of a multipart body by field name, when the route opts in with `uploads` (else
   * always empty). Each is a temporary file, deleted once the response has closed.
   */
  files: Readonly<Record<string, readonly UploadedFile[]>>;
  /** The visitor's IP (see TRUST_PROXY and PROXY_HOPS). */
  clientIp: string;
  /**
   * Who the visitor is to a per-client limit (rateLimit()'s default key): `clientIp` in one
   * spelling (no brackets, port or zone, IPv4-mapped IPv6 as IPv4), an IPv6 address reduced to its
   * network (`RATE_LIMIT_IPV6_PREFIX`, /64 by default: `2001:db8::/64`).
   */
  clientKey: string;
  cookies: RequestCookies;
  session: Session;
  values: RequestValues;
  response: ResponseControl;
  services: RouteServices;
  /**
   * Sends a visitor's feedback to error reporting (Sentry user feedback, linked to `eventId`'s
   * event); false, and nothing sent, while error reporting is off (no SENTRY_DSN).
   */
  reportFeedback: (feedback: UserFeedback) => boolean;
}
