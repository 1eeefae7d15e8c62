import { useMemo } from "react";
import { ActionDataContext } from "../forms/action-data";
import { ServedLocationContext } from "../navigation/served-location";
import type { RouterLocation } from "../navigation/router-state";
import { headOf } from "../routing/head";
import type { RouteModules } from "../routing/module";
import { RenderedRoutesContext } from "../routing/rendered-routes";
import type { RouteState } from "../routing/route-state";
import type { RouteTable } from "../routing/route-table";
import { Document } from "./Document";
import { type FeedbackPage, FeedbackPageContext } from "./feedback-page";
import { type OutletBoundary, type RenderTracker, RouteTree } from "./RouteTree";

export interface AppProps {
  state: RouteState;
  modules: RouteModules;
  /** The app's table: names the patterns useRouteLoaderData is asked for. */
  table: RouteTable;
  traceMeta: Record<string, string>;
  Boundary?: OutletBoundary;
  tracker?: RenderTracker;
  /** The app's feedback page, offered by error pages (the runtime config's `feedbackPage`). */
  feedbackPage?: FeedbackPage | null;
  /** Whether the app has a /favicon.ico (the runtime config's `favicon`). */
  favicon?: boolean;
  /** The address the server rendered (useLocation() on the server and while hydrating). */
  served: RouterLocation;
}

/** The document for a route state: rendered by the server, hydrated and re-rendered on navigation by the browser. */
export function App({ state, modules, table, traceMeta, Boundary, tracker, feedbackPage = null, favicon = false, served }: AppProps) {
  const rendered = useMemo(() => ({ state, table }), [state, table]);
  return (
    <Document head={headOf(state, modules)} styles={state.styles} traceMeta={traceMeta} favicon={favicon}>
      <FeedbackPageContext value={feedbackPage}>
        <ServedLocationContext value={served}>
          <RenderedRoutesContext value={rendered}>
            <ActionDataContext value={state.actionData}>
              <RouteTree state={state} modules={modules} Boundary={Boundary} tracker={tracker} />
            </ActionDataContext>
          </RenderedRoutesContext>
        </ServedLocationContext>
      </FeedbackPageContext>
    </Document>
  );
}
