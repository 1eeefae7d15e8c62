import { Component, type ComponentType, type ReactNode } from "react";
import type { ErrorBoundaryProps, RouteError } from "../../shared/routing/module";

interface Props {
  fallback: ComponentType<ErrorBoundaryProps>;
  resetKey: unknown;
  children: ReactNode;
}

interface State {
  error: RouteError | undefined;
  resetKey: unknown;
}

/**
 * A layout's outlet in the browser: an error while rendering the routes below shows the
 * layout's error component there (React reports it through the root's onCaughtError hook);
 * the next navigation clears it.
 */
export class OutletErrorBoundary extends Component<Props, State> {
  override state: State = { error: undefined, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    const message = error instanceof Error ? error.message : String(error);
    return { error: process.env.NODE_ENV === "development" ? { message } : {} };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { error: undefined, resetKey: props.resetKey };
  }

  override render() {
    const Fallback = this.props.fallback;
    return this.state.error ? <Fallback error={this.state.error} /> : this.props.children;
  }
}
