import { createContext, type ReactNode, useContext } from "react";

/** What a layout's outlet renders: the matched child route, or the error component standing in for it. */
export const OutletContext = createContext<ReactNode>(null);

export function Outlet() {
  return useContext(OutletContext);
}
