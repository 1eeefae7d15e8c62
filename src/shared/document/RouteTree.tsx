import type { ComponentType, ReactNode } from "react";
import { OutletContext } from "../navigation/Outlet";
import { headOf } from "../routing/head";
import type { ErrorBoundaryProps, RouteModules } from "../routing/module";
import type { RouteState } from "../routing/route-state";
import { PlainErrorPage } from "./PlainErrorPage";

/** The browser's error boundary around an outlet; the server renders outlets bare. */
export type OutletBoundary = ComponentType<{
  fallback: ComponentType<ErrorBoundaryProps>;
  /** A new state (a navigation) clears a caught error. */
  resetKey: unknown;
  /** The document title while the fallback shows: what the server's error page would have. */
  errorTitle: () => string;
  children: ReactNode;
}>;

/**
 * Which route was rendering when the server's render failed: routes render top down, one per
 * level, so the deepest one that started is the one that threw (or its layout's content after
 * the outlet, which a second render then shows).
 */
export interface RenderTracker {
  deepest: number;
}

export interface RouteTreeProps {
  state: RouteState;
  modules: RouteModules;
  Boundary?: OutletBoundary;
  tracker?: RenderTracker;
}

/** Renders the matched chain: each layout's outlet holds the next route, or its error component. */
export function RouteTree(props: RouteTreeProps) {
  const { state, Boundary } = props;
  if (state.error?.boundaryId === null) return <PlainErrorPage error={state.error.error} />;
  // In the browser, an error in the root layout itself still leaves a page.
  // One props object shared by every level (no spread per level: this runs for every page).
  const level = <RouteLevel tree={props} depth={0} />;
  return Boundary ? (
    <Boundary fallback={PlainErrorPage} resetKey={state} errorTitle={() => headOf({ ...state, error: { boundaryId: null, error: {} } }, props.modules).title}>
      {level}
    </Boundary>
  ) : (
    level
  );
}

function RouteLevel({ tree, depth }: { tree: RouteTreeProps; depth: number }) {
  const { state, modules, Boundary, tracker } = tree;
  if (tracker && depth > tracker.deepest) tracker.deepest = depth;
  const match = state.matches[depth];
  if (!match) return null;
  const module = modules.get(match.id);
  const Page = module.default;
  const ErrorComponent = module.ErrorBoundary;
  let outlet: ReactNode = null;
  if (ErrorComponent && state.error?.boundaryId === match.id) {
    outlet = <ErrorComponent error={state.error.error} />;
  } else if (depth + 1 < state.matches.length) {
    outlet = <RouteLevel tree={tree} depth={depth + 1} />;
    if (ErrorComponent && Boundary) outlet = (
        <Boundary fallback={ErrorComponent} resetKey={state} errorTitle={() => headOf({ ...state, error: { boundaryId: match.id, error: {} } }, modules).title}>
          {outlet}
        </Boundary>
      );
  }
  return (
    <OutletContext value={outlet}>
      <Page data={state.data[match.id]} params={match.params} />
    </OutletContext>
  );
}

