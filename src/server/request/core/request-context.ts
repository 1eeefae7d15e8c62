import type { ServerResponse } from "node:http";
import type { Context } from "koa";
import type { Params } from "../../../shared/routing/match";
import type {
  RouteServices,
  CookieOptions,
  RequestContext,
  RequestCookies,
  RequestValueKey,
  RequestValues,
  ResponseControl,
  Session,
  UploadedFile,
  UserFeedback,
} from "../../../shared/routing/request";
import { applyHeader } from "../../http/response-headers";
import { clientKey } from "../../limits/client-key";
import { type RequestSessions, RequestSession } from "../../sessions/request-session";
import { isReadMethod } from "../../http/methods";
import { isSessionPending } from "../../sessions/session-pending";
import { isThenable } from "./maybe-promise";

/** What the app's services (src/server/services/) hand every request. */
export interface RequestServices {
  /** What route code reads as `context.services`: rate limits, user feedback, the app's settings. */
  route: RouteServices;
  /** Where the app's sessions live. */
  sessions: RequestSessions;
}

const COOKIE_DEFAULTS = { httpOnly: true, sameSite: "lax", path: "/" } as const;

/** Request headers that say who asks: reading one makes the answer this visitor's (`personal`). */
const PERSONAL_HEADERS = new Set(["cookie", "authorization"]);

/**
 * One request's context for its middleware, loaders and action. Built once per request; what
 * costs something (the URL, cookies, the session) is made on first use, so a page that never
 * reads them pays nothing. Functions are arrow fields, so they keep working destructured.
 */
export class PageRequestContext implements RequestContext {
  params: Params;
  /** Set by the resolver from the page's `searchParams` schema, before any route code runs. */
  search: unknown;
  readonly services: RouteServices;
  /** Set when the answer depends on who asks (a cookie read or set, the session): not for shared caches. */
  personal = false;
  /** A status the route chose for the page; used when it renders without error. */
  chosenStatus: number | undefined;
  readonly #ctx: Context;
  readonly #url: () => URL;
  readonly #sessions: RequestSessions;
  readonly #ipv6Prefix: number;
  #cookies: RequestCookies | undefined;
  /** Read from its store on first use. */
  #session: RequestSession | undefined;
  #response: ResponseControl | undefined;
  #requestValues: RequestValues | undefined;

  constructor(ctx: Context, params: Params, url: () => URL, services: RequestServices, ipv6Prefix: number) {
    this.#ctx = ctx;
    this.#ipv6Prefix = ipv6Prefix;
    this.params = params;
    this.#url = url;
    this.services = services.route;
    this.#sessions = services.sessions;
  }

  readonly header = (name: string): string => {
    if (PERSONAL_HEADERS.has(name.toLowerCase())) this.personal = true;
    return this.#ctx.get(name);
  };

  readonly reportFeedback = (feedback: UserFeedback): boolean => {
    const send = this.services.userFeedback;
    if (!send) return false;
    send(feedback);
    return true;
  };

  get url(): URL {
    return this.#url();
  }

  /** HEAD reads as GET: it asks what GET would answer, so loaders must not tell them apart. */
  get method(): string {
    const { method } = this.#ctx;
    return method === "HEAD" ? "GET" : method;
  }

  /**
   * The request's headers; reading a personal one (by name, by listing them all, or asking whether
   * it was sent: its absence is who asks too) makes the answer personal, as `header()` does.
   */
  get headers(): Readonly<Record<string, string | string[] | undefined>> {
    const headers = this.#ctx.headers;
    const personalName = (name: string | symbol) => {
      if (typeof name === "string" && PERSONAL_HEADERS.has(name)) this.personal = true;
    };
    return new Proxy(headers, {
      get: (target, name) => {
        personalName(name);
        return Reflect.get(target, name);
      },
      has: (target, name) => {
        personalName(name);
        return Reflect.has(target, name);
      },
    });
  }

  get body(): unknown {
    const { method } = this.#ctx;
    return isReadMethod(method) ? undefined : (this.#ctx.request.body ?? {});
  }

  /** Who asks, as their address: the answer is theirs (personal). */
  get clientIp(): string {
    this.personal = true;
    return this.#ctx.ip;
  }

  get clientKey(): string {
    this.personal = true;
    return clientKey(this.#ctx.ip, this.#ipv6Prefix);
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
    this.personal = true;
    this.#session ??= new RequestSession(this.#ctx, this.#sessions);
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
      setHeader: (name, value) => {
        if (name.toLowerCase() === "set-cookie") this.personal = true;
        applyHeader(this.#ctx, name, value, "set");
      },
      appendHeader: (name, value) => {
        if (name.toLowerCase() === "set-cookie") this.personal = true;
        applyHeader(this.#ctx, name, value, "append");
      },
    };
    return this.#response;
  }

  /** The response itself, for an answer that outlives the route's code (an event stream cut during shutdown); the context is not kept for it. */
  rawResponse(): ServerResponse {
    return this.#ctx.res;
  }

  /** Writes the session when it was used and changed; before any header is sent. */
  commit(): Promise<void> | undefined {
    return this.#session?.commit();
  }

  /**
   * Loads the session before the chain runs when its store fetches it and waiting later would
   * mean running code twice: a POST (its action has effects) or a chain seen touching it before.
   */
  prepareSession(pattern: string): Promise<void> | undefined {
    if (!this.#sessions.store.fetches) return undefined;
    this.#session ??= new RequestSession(this.#ctx, this.#sessions);
    return this.#session.prepare(pattern, this.#ctx.method);
  }

  /** Runs route code; when it touched a session still being fetched, runs it again once the session is here. */
  touchingSession<Result>(run: (context: RequestContext) => Result): Result | Promise<unknown> {
    const session = this.#session;
    if (!session?.fetches) return run(this);
    const again = (error: unknown) => {
      if (!isSessionPending(error)) throw error;
      return session.loaded().then(() => run(this));
    };
    let result: Result;
    try {
      result = run(this);
    } catch (error) {
      return again(error);
    }
    return isThenable(result) ? Promise.resolve(result).catch(again) : result;
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
