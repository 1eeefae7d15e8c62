import { ActionDataContext, FeedbackAvailableContext } from "../forms/page-forms";
import { headOf } from "../routing/head";
import type { RouteModules } from "../routing/module";
import type { RouteState } from "../routing/route-state";
import { Document } from "./Document";
import { type OutletBoundary, type RenderTracker, RouteTree } from "./RouteTree";

export interface AppProps {
  state: RouteState;
  modules: RouteModules;
  traceMeta: Record<string, string>;
  Boundary?: OutletBoundary;
  tracker?: RenderTracker;
  /** Whether visitors can send feedback (the runtime config's `feedback`). */
  feedback?: boolean;
  /** Whether the app has a /favicon.ico (the runtime config's `favicon`). */
  favicon?: boolean;
}

/** The document for a route state: rendered by the server, hydrated and re-rendered on navigation by the browser. */
export function App({ state, modules, traceMeta, Boundary, tracker, feedback = false, favicon = false }: AppProps) {
  return (
    <Document head={headOf(state, modules)} styles={state.styles} traceMeta={traceMeta} favicon={favicon}>
      <FeedbackAvailableContext value={feedback}>
        <ActionDataContext value={state.actionData}>
          <RouteTree state={state} modules={modules} Boundary={Boundary} tracker={tracker} />
        </ActionDataContext>
      </FeedbackAvailableContext>
    </Document>
  );
}
