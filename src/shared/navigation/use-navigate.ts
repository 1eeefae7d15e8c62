import { useCallback, useContext, useLayoutEffect, useRef } from "react";
import { type NavigateOptions, RouterContext } from "./router-context";

/** navigate(href, options) goes to a page (another origin: a document load); navigate(-1) is the back button. */
export interface NavigateFunction {
  (to: string, options?: NavigateOptions): Promise<void>;
  (delta: number): void;
}

/**
 * Navigation from code: after a fetcher finished, on a key press, in a "cancel" button. Call it
 * from an event handler or an effect: while rendering it warns and does nothing (a render may
 * run again or be thrown away), and on the server, where no handler or effect runs, it throws.
 */
export function useNavigate(): NavigateFunction {
  const router = useContext(RouterContext);
  const committed = useRef(false);
  useLayoutEffect(() => {
    committed.current = true;
  }, []);
  return useCallback(
    ((to: string | number, options?: NavigateOptions) => {
      if (!router) throw new Error("navigate() was called on the server: call it from an event handler or an effect, which run in the browser");
      if (!committed.current) {
        console.warn("Outpost: navigate() was called while rendering; call it from an event handler or an effect");
        return typeof to === "number" ? undefined : Promise.resolve();
      }
      if (typeof to === "number") return router.go(to);
      return router.navigate(to, options);
    }) as NavigateFunction,
    [router],
  );
}
