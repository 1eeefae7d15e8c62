import { Component, type ReactNode, useEffect } from "react";
import { ErrorPage } from "../shared/pages/ErrorPage";

/**
 * Wraps the page in the browser: an error boundary showing the error page (React reports
 * what it catches through the root's onCaughtError hook), and an effect that runs once
 * hydration has committed, so the `data-hydrated` marker tells tests and monitoring that
 * the page is interactive.
 */
export function PageBoundary({ children }: { children: ReactNode }) {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <PageErrorBoundary>{children}</PageErrorBoundary>;
}

class PageErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? <ErrorPage /> : this.props.children;
  }
}
