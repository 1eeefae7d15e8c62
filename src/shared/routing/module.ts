import type { ComponentType } from "react";
import type { Params } from "./match";
import type { DataOf } from "./inferred-data";
import type { ParamsOf, RoutePattern } from "./register";
import type { RequestContext } from "./request";
import type { SearchOf, SearchSchema } from "./search-schema";

/** What a route's `shouldRevalidate` export is asked with, as React Router's. */
export interface ShouldRevalidateArgs {
  currentUrl: URL;
  currentParams: Params;
  nextUrl: URL;
  nextParams: Params;
  /** Set when an action answered since the page's data was loaded (a fetcher's submission). */
  formMethod?: string;
  /** What the platform would do: true for changed params or search, after an action, on revalidate(). */
  defaultShouldRevalidate: boolean;
}

export type { RouteServices } from "./request";

/** A literal `/…` type names a pattern of the registered table (any other type is the older form's data); else a message naming it. */
type PatternCheck<First> = First extends `/${string}`
  ? string extends First
    ? unknown
    : First extends RoutePattern
      ? unknown
      : `unknown route pattern: ${First}`
  : unknown;

/**
 * What a page or layout component receives: `PageProps<"/notes/:id", typeof load>` types its
 * params by its full pattern and its data by its loader (an unknown pattern is a type error
 * naming it). `PageProps<Data>` (data, loose params) stays for modules outside the table.
 */
export type PageProps<First = unknown, Load extends PatternCheck<First> = PatternCheck<First> & undefined> = First extends `/${string}`
  ? string extends First
    ? { data: First; params: Params }
    : First extends RoutePattern
      ? { data: Load extends undefined ? unknown : DataOf<Load>; params: ParamsOf<First> }
      : { data: unknown; params: PatternCheck<First> }
  : { data: First; params: Params };

export type LoaderData<Load extends (...args: never[]) => unknown> = Awaited<ReturnType<Load>>;

/** An error as a route's error component sees it: details only in development. */
export interface RouteError {
  message?: string;
  stack?: string;
  /** The id of the event error reporting recorded for it, when it was reported. */
  eventId?: string;
  /** Set for an `httpError(status, data)`: the 4xx and the data it carries. */
  status?: number;
  data?: unknown;
}

export interface ErrorBoundaryProps {
  error: RouteError;
}

export interface MetaTag {
  name?: string;
  property?: string;
  content: string;
}

/** A `<link>` in the head: canonical, icons, alternates. */
export interface LinkTag {
  rel: string;
  href: string;
  type?: string;
  sizes?: string;
  hrefLang?: string;
  media?: string;
}

export interface HeadTags {
  title?: string;
  description?: string;
  meta?: MetaTag[];
  /** Each link replaces an earlier one of the same rel (and hreflang, sizes, media): one canonical, one icon per size. */
  links?: LinkTag[];
  /** Structured data, each object one `<script type="application/ld+json">`; every route's are kept. */
  jsonLd?: Record<string, unknown>[];
  /** The document's language, `<html lang>`; the deepest route's wins. */
  lang?: string;
}

/** A route module (`X.tsx`): shared by the server render and the browser. */
export interface RouteModule {
  // biome-ignore lint/suspicious/noExplicitAny: each module types its own data; the table stores them erased.
  default: ComponentType<PageProps<any>>;
  /** Shown in this route's outlet when a route below it fails, inside the layouts above. */
  ErrorBoundary?: ComponentType<ErrorBoundaryProps>;
  // biome-ignore lint/suspicious/noExplicitAny: as for default.
  head?: (props: PageProps<any>) => HeadTags;
  /** Head while this route's error component is shown: fixed, or chosen by the error (its `status`). */
  errorHead?: HeadTags | ((props: ErrorBoundaryProps) => HeadTags);
  /** Whether this route's loader runs again for a client navigation or revalidation (see ShouldRevalidateArgs). */
  shouldRevalidate?: (args: ShouldRevalidateArgs) => boolean;
}

/**
 * What a loader sees: the request (see RequestContext), framework-neutral, so route code stays
 * free of Koa. `LoaderContext<"/notes/:id">` types `params` by the route's full pattern, and
 * `LoaderContext<"/notes", typeof searchParams>` types `search` by the page's query schema.
 */
export type LoaderContext<Pattern extends RoutePattern = never, Schema extends SearchSchema | undefined = undefined> = RequestContext<
  ParamsOf<Pattern>,
  SearchOf<Schema>
>;

/** What an action sees: the same context as a loader, with the parsed body. */
export type ActionContext<Pattern extends RoutePattern = never, Schema extends SearchSchema | undefined = undefined> = RequestContext<
  ParamsOf<Pattern>,
  SearchOf<Schema>
>;

/**
 * Runs before any loader of the chain, root to leaf, one after another: it may throw `redirect()`
 * or `httpError()`, or put values on `values` for the loaders and actions below.
 */
export type RouteMiddleware<Pattern extends RoutePattern = never> = {
  // Method syntax (bivariant): a middleware typed for its route's params still fits the table's erased lists.
  run(context: RequestContext<ParamsOf<Pattern>>): void | Promise<void>;
}["run"];

/** Response headers a route adds to its document, or a function of its loader data. */
export type RouteHeaders = Record<string, string> | ((args: { data: unknown; params: Params }) => Record<string, string>);

/** A route's opt-in to multipart file parts; without it they are refused with 415. */
export interface UploadLimits {
  maxFileBytes: number;
  maxFiles: number;
  /** Accepted media types; any when absent. */
  types?: readonly string[];
}

/** The methods a resource route may export a handler for, in the order a 405's `Allow` lists them. */
export const RESOURCE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type ResourceMethod = (typeof RESOURCE_METHODS)[number];

/**
 * A resource route's handlers, one per method (`export function PUT(context) {…}`), each seeing
 * what an action sees; HEAD runs GET. The other form of a resource route is `load` and `action`:
 * a module exports one form or the other, never both.
 */
export type ResourceHandlers = {
  // Method syntax: a handler typed for its own pattern's params is still one of the table's.
  [Method in ResourceMethod]?: { run(context: ActionContext): unknown }["run"];
};

/**
 * A route's server-only half (`X.server.ts`): never part of a browser bundle. Named by the route
 * table itself, without a component beside it, it is a resource route: what its handler for the
 * method (`GET`, `PUT`…), or its loader (GET, HEAD) or action, returns is the answer, a web
 * `Response` or data sent as JSON.
 */
export interface ServerRouteModule extends ResourceHandlers {
  /** Runs on the server only; its result must be JSON-serialisable (it is sent to the browser). */
  // Method syntax: a loader typed for its own pattern's params is still a loader of the table.
  load?(context: LoaderContext): unknown;
  /**
   * Runs for a POST to the page: throws `redirect()` (answered 303, post/redirect/get) or
   * `notFound()`, or returns data (or `actionData(data, { status })`) to render the page with.
   */
  action?(context: ActionContext): unknown;
  uploads?: UploadLimits;
  /** A resource route's methods for its action; POST, PUT, PATCH and DELETE when absent. */
  actionMethods?: readonly string[];
  middleware?: readonly RouteMiddleware[];
  /**
   * A page's query schema (zod, or any Standard Schema validating synchronously): parsed before
   * its middleware, loaders and action see it as `search`; a query it refuses answers 400
   * through the error component, with `error.data.issues`. A layout's is not read.
   */
  searchParams?: SearchSchema;
  /** Headers for the document, e.g. `{ "Cache-Control": "public, max-age=60" }`; deeper routes win. */
  headers?: RouteHeaders;
  /**
   * A page's answer kept by the server and shared caches (see PageCachePolicy); only the page's
   * own (the chain's deepest route) counts. It also sets `Cache-Control: public, s-maxage, stale-while-revalidate`.
   */
  cache?: PageCachePolicy;
  /**
   * A page rendered once, by `npm run build`, and served from the build without running its
   * loaders: `true` for a page without params, or the params to build (see `Prerender`). A layout's is not read.
   */
  prerender?: Prerender;
}

/**
 * A page's opt-in to the server's page cache (its server half's `cache` export): its answer is
 * kept per URL and build, served for `maxAge` seconds, then for `staleWhileRevalidate` more
 * while one background render refreshes it. `tags` name the data it shows, for revalidateTag();
 * a function of the page's params and parsed query when the tags depend on them.
 */
export interface PageCachePolicy {
  maxAge: number;
  staleWhileRevalidate?: number;
  tags?: readonly string[] | ((args: { params: Params; search: unknown }) => readonly string[]);
}

/**
 * A page's `prerender` export: `true` for a pattern without params, or the list of params to
 * build (a function, async or not, run once at build; an optional segment is a param, `{}` builds
 * the URL without it). `Prerender<"/notes/:id">` types the params by the route's full pattern, and
 * refuses `true` where the pattern has params, as the build would.
 */
export type Prerender<Pattern extends RoutePattern = never> =
  | ([Pattern] extends [never] ? true : keyof ParamsOf<Pattern> extends never ? true : never)
  | (() => readonly Readonly<ParamsOf<Pattern>>[] | Promise<readonly Readonly<ParamsOf<Pattern>>[]>);

/** Route modules by id, loaded: the server has all of them, the browser those it has rendered. */
export interface RouteModules {
  get(id: string): RouteModule;
}
