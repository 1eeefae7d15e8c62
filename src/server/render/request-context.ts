import type { Context } from "koa";
import type { Params } from "../../shared/routing/match";
import type {
  ActionServices,
  CookieOptions,
  RequestContext,
  RequestCookies,
  RequestValueKey,
  RequestValues,
  ResponseControl,
  Session,
  UploadedFile,
} from "../../shared/routing/request";
import { applyHeader } from "../http/response-headers";
import { readSession, type SessionValues, saveSession } from "../sessions/sessions";

const COOKIE_DEFAULTS = { httpOnly: true, sameSite: "lax", path: "/" } as const;

/**
 * One request's context for its middleware, loaders and action. Built once per request; what
 * costs something (the URL, cookies, the session) is made on first use, so a page that never
 * reads them pays nothing. Functions are arrow fields, so they keep working destructured.
 */
export class PageRequestContext implements RequestContext {
  params: Params;
  readonly services: ActionServices;
  /** Set when the answer depends on who asks (a cookie read or set, the session): not for shared caches. */
  personal = false;
  /** A status the route chose for the page; used when it renders without error. */
  chosenStatus: number | undefined;
  readonly #ctx: Context;
  readonly #url: () => URL;
  #cookies: RequestCookies | undefined;
  #session: Session | undefined;
  /** The session's values, read from its cookie on first use. */
  #sessionValues: SessionValues | undefined;
  /** Set by `set` and `clear`: a session only read is not written. */
  #sessionChanged = false;
  #response: ResponseControl | undefined;
  #requestValues: RequestValues | undefined;

  constructor(ctx: Context, params: Params, url: () => URL, services: ActionServices) {
    this.#ctx = ctx;
    this.params = params;
    this.#url = url;
    this.services = services;
  }

  readonly header = (name: string): string => this.#ctx.get(name);

  get url(): URL {
    return this.#url();
  }

  /** HEAD reads as GET: it asks what GET would answer, so loaders must not tell them apart. */
  get method(): string {
    const { method } = this.#ctx;
    return method === "HEAD" ? "GET" : method;
  }

  get headers(): Readonly<Record<string, string | string[] | undefined>> {
    return this.#ctx.headers;
  }

  get body(): unknown {
    const { method } = this.#ctx;
    return method === "GET" || method === "HEAD" ? undefined : (this.#ctx.request.body ?? {});
  }

  get clientIp(): string {
    return this.#ctx.ip;
  }

  get files(): Record<string, UploadedFile[]> {
    const files: Record<string, UploadedFile[]> = {};
    for (const [field, entry] of Object.entries(this.#ctx.request.files ?? {})) {
      files[field] = (Array.isArray(entry) ? entry : [entry]).map((file) => ({
        path: file.filepath,
        name: file.originalFilename,
        type: file.mimetype,
        size: file.size,
      }));
    }
    return files;
  }

  get cookies(): RequestCookies {
    this.#cookies ??= this.#makeCookies();
    return this.#cookies;
  }

  get session(): Session {
    this.#session ??= this.#makeSession();
    return this.#session;
  }

  get values(): RequestValues {
    this.#requestValues ??= this.#makeValues();
    return this.#requestValues;
  }

  get response(): ResponseControl {
    this.#response ??= {
      status: (code) => {
        this.chosenStatus = code;
      },
      setHeader: (name, value) => applyHeader(this.#ctx, name, value, "set"),
      appendHeader: (name, value) => applyHeader(this.#ctx, name, value, "append"),
    };
    return this.#response;
  }

  /** Writes the session's cookie when the session was used and changed; before any header is sent. */
  commit(): Promise<void> | undefined {
    return this.#sessionChanged && this.#sessionValues ? saveSession(this.#ctx, this.#sessionValues) : undefined;
  }

  #makeCookies(): RequestCookies {
    const cookies = this.#ctx.cookies;
    return {
      get: (name, options) => {
        this.personal = true;
        return cookies.get(name, { signed: options?.signed ?? false });
      },
      set: (name, value, options: CookieOptions = {}) => {
        this.personal = true;
        cookies.set(name, value, { ...COOKIE_DEFAULTS, signed: false, ...options });
      },
      delete: (name, options = {}) => {
        this.personal = true;
        cookies.set(name, "", { ...COOKIE_DEFAULTS, ...options, expires: new Date(0), maxAge: undefined });
      },
    };
  }

  #makeSession(): Session {
    if (!("session" in this.#ctx)) throw new Error("sessions are not set up on this app (createApp installs them)");
    this.personal = true;
    // Read (and the cookie checked) on first use, not when a route merely names `session`.
    const current = () => {
      this.#sessionValues ??= readSession(this.#ctx);
      return this.#sessionValues;
    };
    return {
      get: <Value>(key: string) => current()[key] as Value | undefined,
      set: (key, value) => {
        this.#sessionChanged = true;
        current()[key] = value;
      },
      clear: () => {
        this.#sessionChanged = true;
        this.#sessionValues = Object.create(null) as SessionValues;
      },
    };
  }

  #makeValues(): RequestValues {
    const values = new Map<string, unknown>();
    return {
      get: <Value>(key: RequestValueKey<Value>): Value => {
        if (!values.has(key.name)) throw new Error(`no request value ${key.name}: no middleware above this route set it`);
        return values.get(key.name) as Value;
      },
      set: (key, value) => {
        values.set(key.name, value);
      },
      has: (key) => values.has(key.name),
    };
  }
}
