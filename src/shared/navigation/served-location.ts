import { createContext } from "react";
import type { RouterLocation } from "./router-state";

/**
 * The address the server rendered (its request's path and query; no fragment, state or entry
 * key reach a server): what useLocation() answers on the server and while the browser hydrates,
 * so both render the same; the browser's own location follows right after.
 */
export const ServedLocationContext = createContext<RouterLocation>(servedLocation("/", ""));

export function servedLocation(pathname: string, search: string): RouterLocation {
  return { pathname, search, hash: "", state: null, key: "default" };
}
