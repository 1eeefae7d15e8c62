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

/** A route's server-only half (`X.server.ts`): never part of a browser bundle. */
export interface ServerRouteModule {
  /** Runs on the server only; its result must be JSON-serialisable (it is sent to the browser). */
  load?: (context: LoaderContext) => unknown;
}

/** Route modules by id, loaded: the server has all of them, the browser those it has rendered. */
export interface RouteModules {
  get(id: string): RouteModule;
}
