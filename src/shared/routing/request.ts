import type { Params } from "./match";

/**
 * What the server offers loaders and actions besides the request. Empty here; server modules add
 * theirs by declaration merging, so route code names no server file.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by declaration merging.
export interface ActionServices {}

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

/** The visitor's session: a signed cookie, read on first use only. */
export interface Session {
  get: <Value = unknown>(key: string) => Value | undefined;
  /** Saves a value: the session is written only when `set` or `clear` was called (a value changed in place is not saved). */
  set: (key: string, value: unknown) => void;
  /** Ends the session: its cookie is removed. */
  clear: () => void;
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

export function requestValue<Value>(name: string): RequestValueKey<Value> {
  return { name };
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
export interface RequestContext {
  params: Params;
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
  cookies: RequestCookies;
  session: Session;
  values: RequestValues;
  response: ResponseControl;
  services: ActionServices;
}
