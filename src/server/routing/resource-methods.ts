import { RESOURCE_METHODS, type ResourceMethod, type ServerRouteModule } from "../../shared/routing/module";

/** The per-method handlers a server half exports (`GET`, `PUT`…), in `Allow`'s order. */
export function exportedMethods(server: ServerRouteModule): ResourceMethod[] {
  return RESOURCE_METHODS.filter((method) => server[method] !== undefined);
}

const LOADER_ACTION_EXPORTS = ["load", "action", "actionMethods"] as const;

/**
 * Refuses, naming the file, a server half whose per-method handlers could not all run: on a page
 * (its POST is its action), beside `load`/`action` (which would answer the same methods), or not functions.
 */
export function checkMethodHandlers(file: string, server: ServerRouteModule, resource: boolean): void {
  const methods = exportedMethods(server);
  if (methods.length === 0) return;
  const list = methods.join(", ");
  if (!resource) {
    throw new Error(`route module ${file}: its server half exports ${list}, handlers for resource routes only (a .server.ts the route table names); a page answers POST with its action`);
  }
  const other = LOADER_ACTION_EXPORTS.filter((name) => server[name] !== undefined);
  if (other.length > 0) {
    throw new Error(`resource route ${file} exports both per-method handlers (${list}) and ${other.join(", ")}: export one form, the handlers or load/action`);
  }
  for (const method of methods) {
    if (typeof server[method] !== "function") throw new Error(`resource route ${file}: its ${method} export is not a function`);
  }
}
