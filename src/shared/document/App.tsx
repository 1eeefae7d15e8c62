import { headOf } from "../routing/head";
import type { RouteModules } from "../routing/module";
import type { RouteState } from "../routing/route-state";
import { Document } from "./Document";
import { type OutletBoundary, type RenderTracker, RouteTree } from "./RouteTree";

export interface AppProps {
  state: RouteState;
  modules: RouteModules;
  modulePreloads: readonly string[];
  traceMeta: Record<string, string>;
  Boundary?: OutletBoundary;
  tracker?: RenderTracker;
}

/** The document for a route state: rendered by the server, hydrated and re-rendered on navigation by the browser. */
export function App({ state, modules, modulePreloads, traceMeta, Boundary, tracker }: AppProps) {
  return (
    <Document head={headOf(state, modules)} styles={state.styles} modulePreloads={modulePreloads} traceMeta={traceMeta}>
      <RouteTree state={state} modules={modules} Boundary={Boundary} tracker={tracker} />
    </Document>
  );
}
