import { type ReactNode, useEffect } from "react";

/**
 * Wraps the page in the browser. Its effect runs once hydration has committed, so the
 * `data-hydrated` marker tells tests and monitoring that the page is interactive.
 */
export function PageBoundary({ children }: { children: ReactNode }) {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return children;
}
