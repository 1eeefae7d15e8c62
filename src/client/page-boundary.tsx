import { ErrorBoundary } from "@sentry/react";
import { type ReactNode, useEffect } from "react";
import { ErrorPage } from "../shared/pages/ErrorPage";

/**
 * Wraps the page in the browser: an error boundary that reports and shows the error page,
 * and an effect that runs once hydration has committed, so the `data-hydrated` marker tells
 * tests and monitoring that the page is interactive.
 */
export function PageBoundary({ children }: { children: ReactNode }) {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <ErrorBoundary fallback={<ErrorPage />}>{children}</ErrorBoundary>;
}
