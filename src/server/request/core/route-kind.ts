import type { ResourceMethod, ServerRouteModule } from "../../../shared/routing/module";
import type { RequestContext } from "../../../shared/routing/request";
import type { MatchedRoutes } from "../../../shared/routing/route-table";
import { READ_METHODS } from "../../http/methods";
import type { AppRoutes } from "../../routing/app-routes";
import { exportedMethods } from "../../routing/resource-methods";

export type RouteHandler = (context: RequestContext) => unknown;

/** A method that runs a page's loaders only (a page read, or a POST no action takes). */
export const LOADERS_ONLY = "loaders only";
/** A method the route does not take: a 405 with the methods it does. */
export const NOT_TAKEN = "not taken";

/** The code one method runs on a route: its handler (an action, a resource route's), its loaders only, or nothing. */
export type MethodHandler = RouteHandler | typeof LOADERS_ONLY | typeof NOT_TAKEN;

/** What answers a matched chain, by method. */
export interface RouteKind {
  /** A resource route: a server-only module without a component, answering with data or a Response. */
  resource: boolean;
  /** The code a method runs: the action or a resource route's handler, LOADERS_ONLY, or NOT_TAKEN (405). */
  handlerFor(method: string): MethodHandler;
  /** The methods it takes, for a 405's Allow. */
  allow: string;
  /** The deepest route's server half (its cache policy, search schema, upload policy), found once per route. */
  server: ServerRouteModule | undefined;
}

/** What a resource route's action takes unless it says otherwise (`actionMethods`). */
const RESOURCE_ACTION_METHODS = ["POST", "PUT", "PATCH", "DELETE"] as const;

type HandlerTable = Map<string, RouteHandler | typeof LOADERS_ONLY>;

/** A table looked up once per request, so a request runs no method test here: a method missing from it is not taken. */
const lookup =
  (table: HandlerTable): RouteKind["handlerFor"] =>
  (method) =>
    table.get(method) ?? NOT_TAKEN;

/** GET and HEAD (HEAD asks what GET would answer) run `read`, or are not taken when it is null. */
function withReads(table: HandlerTable, read: RouteHandler | typeof LOADERS_ONLY | null): HandlerTable {
  for (const method of READ_METHODS) {
    if (read === null) table.delete(method);
    else table.set(method, read);
  }
  return table;
}

/** The not-found page: its loaders for a read, and for a POST (no action takes it). */
const NO_PAGE: RouteKind = { resource: false, handlerFor: lookup(withReads(new Map([["POST", LOADERS_ONLY]]), LOADERS_ONLY)), allow: "GET, HEAD", server: undefined };

function pageKind(leaf: ServerRouteModule | undefined): RouteKind {
  const action = leaf?.action;
  return {
    resource: false,
    handlerFor: lookup(withReads(new Map(action ? [["POST", action]] : []), LOADERS_ONLY)),
    allow: action ? "GET, HEAD, POST" : "GET, HEAD",
    server: leaf,
  };
}

/** A resource route exporting a handler per method: HEAD runs GET; Allow lists exactly what it exports. */
function methodsKind(leaf: ServerRouteModule, methods: readonly ResourceMethod[]): RouteKind {
  const handlers: HandlerTable = new Map(methods.map((method) => [method, leaf[method] as RouteHandler]));
  const get = handlers.get("GET");
  if (get) handlers.set("HEAD", get);
  return {
    resource: true,
    handlerFor: lookup(handlers),
    allow: methods.flatMap((method) => (method === "GET" ? ["GET", "HEAD"] : [method])).join(", "),
    server: leaf,
  };
}

function resourceKind(leaf: ServerRouteModule): RouteKind {
  const methods = exportedMethods(leaf);
  if (methods.length > 0) return methodsKind(leaf, methods);
  const { load, action } = leaf;
  const actionMethods: readonly string[] = action ? (leaf.actionMethods ?? RESOURCE_ACTION_METHODS) : [];
  return {
    resource: true,
    // Reads run the loader whatever actionMethods says.
    handlerFor: lookup(withReads(new Map(action ? actionMethods.map((method) => [method, action]) : []), load ?? null)),
    allow: [...(load ? ["GET", "HEAD"] : []), ...actionMethods].join(", "),
    server: leaf,
  };
}

// Worked out once per route, not per request.
const known = new WeakMap<AppRoutes, Map<string, RouteKind>>();

/** The kind of the chain's deepest route; an unmatched path is the not-found page, which a POST sees too. */
export function routeKind(routes: AppRoutes, matched: MatchedRoutes | null): RouteKind {
  const leaf = matched?.matches[matched.matches.length - 1];
  if (!leaf) return NO_PAGE;
  let kinds = known.get(routes);
  if (!kinds) {
    kinds = new Map();
    known.set(routes, kinds);
  }
  let kind = kinds.get(leaf.id);
  if (!kind) {
    const server = routes.serverHalf(leaf.id);
    kind = routes.isResource(leaf.id) && server ? resourceKind(server) : pageKind(server);
    kinds.set(leaf.id, kind);
  }
  return kind;
}
