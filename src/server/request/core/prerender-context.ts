import type { Context } from "koa";
import type { Params } from "../../../shared/routing/match";
import type { RequestCookies, Session } from "../../../shared/routing/request";
import { PageRequestContext, type RequestServices } from "./request-context";
import { PrerenderError } from "./prerender-error";

/**
 * The page's URL at build: its path only. Reading the query (none at build) or the origin (the
 * build's own private address, not the site's) is refused, and so is anything holding them.
 */
function pathOnlyUrl(url: URL, refuse: (read: string) => never): URL {
  // At build the origin is the build machine's private address, not the site's.
  const origin = (part: string) => refuse(`the origin (url.${part})`);
  return new (class extends URL {
    override get search(): string {
      return refuse("the query (url.search)");
    }
    override get searchParams(): URLSearchParams {
      return refuse("the query (url.searchParams)");
    }
    override get origin(): string {
      return origin("origin");
    }
    override get host(): string {
      return origin("host");
    }
    override get hostname(): string {
      return origin("hostname");
    }
    override get port(): string {
      return origin("port");
    }
    override get protocol(): string {
      return origin("protocol");
    }
    override get href(): string {
      return origin("href");
    }
    override toString(): string {
      return origin("href");
    }
    override toJSON(): string {
      return origin("href");
    }
  })(url.pathname, url.origin);
}

/**
 * The request context of a page rendered at build: what only a visitor's request has (cookies,
 * the session, headers, the client's address, the query) throws a PrerenderError naming the
 * route, so such a page fails the build instead of freezing one request's answer for everybody.
 */
export class PrerenderRequestContext extends PageRequestContext {
  readonly #route: string;
  readonly #path: URL;

  constructor(route: string, ctx: Context, params: Params, url: () => URL, services: RequestServices, ipv6Prefix: number) {
    super(ctx, params, url, services, ipv6Prefix);
    this.#route = route;
    this.#path = pathOnlyUrl(url(), (read) => this.#refuse(read));
  }

  #refuse(read: string): never {
    throw new PrerenderError(this.#route, read);
  }

  override readonly header = (name: string): string => this.#refuse(`the ${name} header`);

  override get url(): URL {
    return this.#path;
  }

  override get headers(): Readonly<Record<string, string | string[] | undefined>> {
    return this.#refuse("the request headers");
  }

  override get clientIp(): string {
    return this.#refuse("the client's address (clientIp)");
  }

  override get clientKey(): string {
    return this.#refuse("the client's address (clientKey)");
  }

  override get cookies(): RequestCookies {
    return this.#refuse("cookies");
  }

  override get session(): Session {
    return this.#refuse("the session");
  }
}
