import { createContext } from "react";
import type { RouteState } from "./route-state";
import type { RouteTable } from "./route-table";

/** The page being rendered and the table naming its routes' patterns: what useRouteLoaderData reads. */
export interface RenderedRoutes {
  state: RouteState;
  table: RouteTable;
}

export const RenderedRoutesContext = createContext<RenderedRoutes | null>(null);
