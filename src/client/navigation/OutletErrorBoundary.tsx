import { Component, type ComponentType, type ContextType, createContext, type ReactNode } from "react";
import type { ErrorBoundaryProps, RouteError } from "../../shared/routing/module";
import { whenReported } from "../monitoring/event-ids";
import type { RouterEnvironment } from "./core/environment";

interface Props {
  fallback: ComponentType<ErrorBoundaryProps>;
  resetKey: unknown;
  errorTitle: () => string;
  children: ReactNode;
}

/** The document whose title an error shows: the router's environment's (RouterRoot provides it). */
export const TitleDocument = createContext<Pick<RouterEnvironment["document"], "title"> | null>(null);

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
  static override contextType = TitleDocument;
  declare context: ContextType<typeof TitleDocument>;
  override state: State = { error: undefined, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    const message = error instanceof Error ? error.message : String(error);
    return { error: process.env.NODE_ENV === "development" ? { message } : {} };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { error: undefined, resetKey: props.resetKey };
  }

  #unsubscribe: (() => void) | undefined;
  #titles: { before: string; error: string } | undefined;

  /** Error reporting gives the error an event id after this fallback rendered: shown once known. */
  override componentDidCatch(error: unknown): void {
    // The title a full load of this failure shows (the error component's errorHead), not the failed page's.
    const title = this.props.errorTitle();
    const document = this.context;
    if (document) {
      this.#titles = { before: document.title, error: title };
      document.title = title;
    }
    this.#unsubscribe?.();
    this.#unsubscribe = whenReported(error, (eventId) => {
      this.setState((state) => (state.error ? { error: { ...state.error, eventId } } : null));
    });
  }

  override componentDidUpdate(_props: Props, previous: State): void {
    const titles = this.#titles;
    const document = this.context;
    if (!previous.error || this.state.error || !titles || !document) return;
    this.#titles = undefined;
    // React rewrites the title only when its text changed: same text, it is still ours to put back.
    if (document.title === titles.error) document.title = titles.before;
  }

  override componentWillUnmount(): void {
    this.#unsubscribe?.();
  }

  override render() {
    const Fallback = this.props.fallback;
    return this.state.error ? <Fallback error={this.state.error} /> : this.props.children;
  }
}
