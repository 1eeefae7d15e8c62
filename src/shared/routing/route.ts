import type { ComponentType } from "react";
import type { Params } from "./match";

/** What a loader sees: framework-neutral, so the route table stays free of Koa. */
export interface LoaderContext {
  params: Params;
  url: URL;
}

export interface PageProps<Data = unknown> {
  data: Data;
  params: Params;
}

export interface RouteDefinition<Data = unknown> {
  /** Path pattern, e.g. `/items/:id`; also the name of its transactions and metrics. */
  path: string;
  title: string | ((data: Data) => string);
  component: ComponentType<PageProps<Data>>;
  /** Runs on the server only; its result must be JSON-serialisable (it is sent for hydration). */
  load?: (ctx: LoaderContext) => Data | Promise<Data>;
  /** Mounted only when ENABLE_DIAGNOSTIC_ROUTES=true. */
  diagnostic?: boolean;
}

/** Keeps a route's loader and component agreeing on Data while the table stores them erased. */
export function defineRoute<Data>(route: RouteDefinition<Data>): RouteDefinition {
  return route as RouteDefinition;
}

export function routeTitle(route: RouteDefinition, data: unknown): string {
  return typeof route.title === "function" ? route.title(data) : route.title;
}
