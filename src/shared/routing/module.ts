import type { ComponentType } from "react";
import type { Params } from "./match";

/** What a page or layout component receives. `PageProps<LoaderData<typeof load>>` types it from the loader. */
export interface PageProps<Data = unknown> {
  data: Data;
  params: Params;
}

export type LoaderData<Load extends (...args: never[]) => unknown> = Awaited<ReturnType<Load>>;

/** An error as a route's error component sees it: details only in development. */
export interface RouteError {
  message?: string;
  stack?: string;
  /** The id of the event error reporting recorded for it, when it was reported. */
  eventId?: string;
}

export interface ErrorBoundaryProps {
  error: RouteError;
}

export interface MetaTag {
  name?: string;
  property?: string;
  content: string;
}

export interface HeadTags {
  title?: string;
  description?: string;
  meta?: MetaTag[];
}

/** A route module (`X.tsx`): shared by the server render and the browser. */
export interface RouteModule {
  // biome-ignore lint/suspicious/noExplicitAny: each module types its own data; the table stores them erased.
  default: ComponentType<PageProps<any>>;
  /** Shown in this route's outlet when a route below it fails, inside the layouts above. */
  ErrorBoundary?: ComponentType<ErrorBoundaryProps>;
  // biome-ignore lint/suspicious/noExplicitAny: as for default.
  head?: (props: PageProps<any>) => HeadTags;
  /** Head while this route's error component is shown. */
  errorHead?: HeadTags;
}

/** What a loader sees: framework-neutral, so route code stays free of Koa. */
export interface LoaderContext {
  params: Params;
  url: URL;
}

/**
 * What the server offers actions besides the request. Empty here; server modules add theirs by
 * declaration merging (src/server/feedback/action-services.ts), so route code names no server file.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by declaration merging.
export interface ActionServices {}

/** What an action sees: the loader's context, plus the parsed body and the request's headers. */
export interface ActionContext extends LoaderContext {
  /** The parsed body: form fields (a string, or an array when repeated) or JSON. */
  body: unknown;
  /** A request header, lower or mixed case; "" when absent. */
  header(name: string): string;
  /** The visitor's IP (see TRUST_PROXY and PROXY_HOPS). */
  clientIp: string;
  /**
   * The files of a multipart body by field name, when the route opts in with `uploads` (else
   * always empty). Each is a temporary file, deleted once the response has closed.
   */
  files: Readonly<Record<string, readonly UploadedFile[]>>;
  services: ActionServices;
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

/** A route's opt-in to multipart file parts; without it they are refused with 415. */
export interface UploadLimits {
  maxFileBytes: number;
  maxFiles: number;
  /** Accepted media types; any when absent. */
  types?: readonly string[];
}

/** A route's server-only half (`X.server.ts`): never part of a browser bundle. */
export interface ServerRouteModule {
  /** Runs on the server only; its result must be JSON-serialisable (it is sent to the browser). */
  load?: (context: LoaderContext) => unknown;
  /**
   * Runs for a POST to the page: throws `redirect()` (answered 303, post/redirect/get) or
   * `notFound()`, or returns data (or `actionData(data, { status })`) to render the page with.
   */
  action?: (context: ActionContext) => unknown;
  uploads?: UploadLimits;
}

/** Route modules by id, loaded: the server has all of them, the browser those it has rendered. */
export interface RouteModules {
  get(id: string): RouteModule;
}
